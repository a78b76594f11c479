package io.spiffeidt.asserting.introspection;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A bounded in-memory {@link IntrospectionStore} with per-entry expiry. Expired entries are dropped
 * when read, when the bound is reached, and by a sweep that a {@link #put} runs at most once per
 * {@code purgeInterval}: an entry holds a whole OAuth proof (about 80 KB at 80 rounds), so entries
 * nobody reads again must not wait for the bound to be dropped (issue 28's soak: the heap grew by the
 * proofs of every document minted). Thread-safe.
 */
public final class InMemoryIntrospectionStore<V> implements IntrospectionStore<V> {

    private record Entry<V>(V value, Instant expiresAt) {}

    private final ConcurrentHashMap<String, Entry<V>> entries = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Clock clock;
    private final int maxEntries;
    private final Duration purgeInterval;
    private final AtomicReference<Instant> nextPurge;

    /**
     * @param maxEntries the most entries held (oldest dropped first)
     * @param purgeInterval the least time between two sweeps of expired entries
     */
    public InMemoryIntrospectionStore(Clock clock, int maxEntries, Duration purgeInterval) {
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("purgeInterval must be positive");
        }
        this.clock = clock;
        this.maxEntries = maxEntries;
        this.purgeInterval = purgeInterval;
        this.nextPurge = new AtomicReference<>(clock.instant().plus(purgeInterval));
    }

    @Override
    public void put(String key, V value, Instant expiresAt) {
        if (entries.put(key, new Entry<>(value, expiresAt)) == null) {
            order.add(key);
            if (size.incrementAndGet() > maxEntries) {
                evict();
                return;
            }
        }
        Instant now = clock.instant();
        Instant due = nextPurge.get();
        if (!now.isBefore(due) && nextPurge.compareAndSet(due, now.plus(purgeInterval))) {
            dropExpired(now);
            order.removeIf(k -> !entries.containsKey(k));
        }
    }

    @Override
    public Optional<V> get(String key) {
        Entry<V> e = entries.get(key);
        if (e == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(e.expiresAt())) {
            if (entries.remove(key, e)) {
                size.decrementAndGet();
            }
            return Optional.empty();
        }
        return Optional.of(e.value());
    }

    @Override
    public void replace(String key, V value) {
        entries.computeIfPresent(key, (k, e) -> new Entry<>(value, e.expiresAt()));
    }

    /** The number of entries held (live or not yet dropped). */
    public int size() {
        return size.get();
    }

    private void evict() {
        // first drop what has expired, then the oldest, until under the bound
        dropExpired(clock.instant());
        while (size.get() > maxEntries) {
            String oldest = order.poll();
            if (oldest == null) {
                break;
            }
            if (entries.remove(oldest) != null) {
                size.decrementAndGet();
            }
        }
        order.removeIf(k -> !entries.containsKey(k));
    }

    private void dropExpired(Instant now) {
        entries.forEach((k, e) -> {
            if (!now.isBefore(e.expiresAt()) && entries.remove(k, e)) {
                size.decrementAndGet();
            }
        });
    }
}
