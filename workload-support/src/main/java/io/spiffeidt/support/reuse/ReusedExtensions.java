package io.spiffeidt.support.reuse;

import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded memo of the extensions a hop signed, so that the same document forwarded to the same
 * next hop again, while the extension is young, is not signed and encoded again (issue 13: the
 * subject workload forwards one kept document on every request of a session, and the middle tier
 * then receives the same bytes every time). Used by the hops of LSVID, ID-Mode and Anon-Mode.
 *
 * <p>An entry is found by a key the hop derives from what it verified or kept (the very document
 * instance, or the exact received text, and the audience), and is used only while
 *
 * <ul>
 *   <li>it was signed by the same signer, compared by identity: what the hop derives from its
 *       current SVID (a rotated SVID gives a new one, and the next hop's presenter check needs the
 *       new key); a hop whose layers do not depend on its SVID (Anon-Mode) passes {@code null}; and
 *   <li>less than half of its lifetime ({@code exp - iat}) has passed, so the next hops always get
 *       a layer with at least half its life left.
 * </ul>
 *
 * <p>A full memo is cleared. Thread safety: safe for concurrent use; two requests may sign the same
 * extension under a race, and either is valid.
 *
 * @param <K> what an extension is found by (compared with {@code equals})
 * @param <V> the extension as the hop forwards it
 */
public final class ReusedExtensions<K, V> {

    /** How many extensions a hop keeps by default. */
    public static final int DEFAULT_CAPACITY = 256;

    private record Entry<V>(V extension, Object signer, long reuseBefore) {}

    private final int capacity;
    private final ConcurrentHashMap<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();

    /** A memo of at most {@code capacity} extensions (0 = remember nothing). */
    public ReusedExtensions(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
    }

    /**
     * The extension remembered under {@code key}, if {@code signer} signed it and less than half its
     * lifetime has passed at {@code now}; otherwise {@code null}.
     */
    public V find(K key, Object signer, Instant now) {
        if (capacity == 0) {
            return null;
        }
        Entry<V> e = entries.get(key);
        if (e == null || e.signer() != signer || now.getEpochSecond() >= e.reuseBefore()) {
            return null;
        }
        hits.increment();
        return e.extension();
    }

    /**
     * Remembers {@code extension}, signed by {@code signer}, under {@code key}; its layer was issued
     * at {@code issuedAt} and expires at {@code expiresAt}.
     */
    public void remember(K key, Object signer, V extension, Instant issuedAt, Instant expiresAt) {
        if (capacity == 0) {
            return;
        }
        Objects.requireNonNull(extension, "extension");
        long iat = issuedAt.getEpochSecond();
        long reuseBefore = iat + (expiresAt.getEpochSecond() - iat) / 2;
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(key, new Entry<>(extension, signer, reuseBefore));
    }

    /** How many extensions this memo keeps at most (0: none). */
    public int capacity() {
        return capacity;
    }

    /** How many extensions are remembered. */
    public int size() {
        return entries.size();
    }

    /** How many times a remembered extension was used. */
    public long hits() {
        return hits.sum();
    }
}
