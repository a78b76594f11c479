package io.spiffeidt.asserting.introspection;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded in-memory {@link IntrospectionStore} with per-entry expiry. Thread-safe; expired entries
 * are dropped when read and when the bound is reached.
 */
public final class InMemoryIntrospectionStore<V> implements IntrospectionStore<V> {

    private record Entry<V>(V value, Instant expiresAt) {}

    private final ConcurrentHashMap<String, Entry<V>> entries = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Clock clock;
    private final int maxEntries;

    public InMemoryIntrospectionStore(Clock clock, int maxEntries) {
        this.clock = clock;
        this.maxEntries = maxEntries;
    }

    @Override
    public void put(String key, V value, Instant expiresAt) {
        if (entries.put(key, new Entry<>(value, expiresAt)) == null) {
            order.add(key);
            if (size.incrementAndGet() > maxEntries) {
                evict();
            }
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
        Instant now = clock.instant();
        // first drop what has expired, then the oldest, until under the bound
        entries.forEach((k, e) -> {
            if (!now.isBefore(e.expiresAt()) && entries.remove(k, e)) {
                size.decrementAndGet();
            }
        });
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
}
