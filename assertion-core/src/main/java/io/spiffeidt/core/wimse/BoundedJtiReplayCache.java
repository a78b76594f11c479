package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

// Not the project's Memo: a Memo forgets its least recently used entries when full, and a replay
// cache that forgets an unexpired jti lets that WPT through a second time.
/**
 * An in-memory {@link JtiReplayCache} bounded by entries (docs/formats/wimse.md "Replay"). It forgets
 * an entry only once its {@code forgetAfter} has passed on the injected clock; when it holds {@code
 * capacity} unexpired entries it refuses the next WPT with {@link ErrorCode#LIMIT_EXCEEDED} instead of
 * forgetting one, so an attacker who floods it can deny service but never replay. With a WPT
 * lifetime of {@code L} seconds, skew {@code S} and {@code R} accepted WPTs a second, a capacity of
 * {@code R × (L + 2S)} never fills.
 *
 * <p>Thread safety: safe for concurrent use; one lock, each call O(log n) plus the expired entries it
 * drops.
 */
public final class BoundedJtiReplayCache implements JtiReplayCache {

    private record Key(SpiffeId sender, String jti) {}

    private record Entry(Instant forgetAfter, Key key) {}

    private final int capacity;
    private final Clock clock;
    private final Map<Key, Instant> seen = new HashMap<>();
    private final PriorityQueue<Entry> byExpiry =
            new PriorityQueue<>((a, b) -> a.forgetAfter().compareTo(b.forgetAfter()));

    /**
     * @param capacity the most unexpired entries held (at least 1)
     * @param clock where "now" comes from
     */
    public BoundedJtiReplayCache(int capacity, Clock clock) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void checkAndRemember(SpiffeId sender, String jti, Instant forgetAfter) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(jti, "jti");
        Objects.requireNonNull(forgetAfter, "forgetAfter");
        Key key = new Key(sender, jti);
        synchronized (this) {
            Instant now = clock.instant();
            dropExpired(now);
            if (seen.containsKey(key)) {
                throw new AssertionException(ErrorCode.REPLAYED, "WPT jti already used by " + sender);
            }
            if (!forgetAfter.isAfter(now)) {
                // nothing to remember: the verifier refuses such a WPT as expired before it gets here
                return;
            }
            if (seen.size() >= capacity) {
                throw new AssertionException(
                        ErrorCode.LIMIT_EXCEEDED, "WPT replay cache full with " + capacity + " unexpired entries");
            }
            seen.put(key, forgetAfter);
            byExpiry.add(new Entry(forgetAfter, key));
        }
    }

    /** The entries held now (expired ones included until the next call drops them). */
    public synchronized int size() {
        return seen.size();
    }

    /** The most unexpired entries held. */
    public int capacity() {
        return capacity;
    }

    private void dropExpired(Instant now) {
        Entry head = byExpiry.peek();
        while (head != null && !head.forgetAfter().isAfter(now)) {
            byExpiry.poll();
            seen.remove(head.key());
            head = byExpiry.peek();
        }
    }
}
