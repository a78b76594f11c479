package io.spiffeidt.asserting.introspection;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded in-memory {@link IntrospectionStore} with per-entry expiry (docs/operations.md "The
 * introspection store").
 *
 * <p>Bounded by entries and by characters, each entry weighing what its weigher says (a kept OAuth
 * proof is about 85,000 characters at 80 rounds, a pending OAuth token about a thousand): when
 * either bound is passed the oldest entries go first, each in constant time. A live entry dropped
 * for the bound is counted ({@link #dropped()}) and logged at most once per {@code purgeInterval}:
 * the document it belongs to can no longer be introspected. Without the character bound, the proofs
 * of a burst of mints filled the heap and the process did not recover (issue 28's {@code mint}
 * staircase).
 *
 * <p>Expired entries are dropped when read, and by a sweep run at most once per {@code
 * purgeInterval}, by a {@link #put} or by {@link #sweep()} (called on a schedule by {@link
 * IntrospectionSweeper}, so a store nobody writes to any more is emptied too).
 *
 * <p>Thread safety: thread safe, without a lock.
 *
 * @param <V> the kept value
 */
public final class InMemoryIntrospectionStore<V> implements IntrospectionStore<V> {

    private static final Logger log = LoggerFactory.getLogger(InMemoryIntrospectionStore.class);

    /** One kept value; identity matters (the order queue holds entries, not keys). */
    private static final class Entry<V> {
        final String key;
        final Instant expiresAt;
        /** Written under the map's lock for {@code key} ({@code computeIfPresent}). */
        volatile V value;

        volatile long chars;

        Entry(String key, V value, long chars, Instant expiresAt) {
            this.key = key;
            this.value = value;
            this.chars = chars;
            this.expiresAt = expiresAt;
        }
    }

    private final String name;
    private final ConcurrentHashMap<String, Entry<V>> entries = new ConcurrentHashMap<>();
    /** Entries in the order they were put; replaced or dropped ones stay until polled or swept. */
    private final ConcurrentLinkedQueue<Entry<V>> order = new ConcurrentLinkedQueue<>();

    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong chars = new AtomicLong();
    private final LongAdder dropped = new LongAdder();
    private final Clock clock;
    private final int maxEntries;
    private final long maxChars;
    private final Duration purgeInterval;
    private final ToLongFunction<? super V> weigher;
    private final AtomicReference<Instant> nextPurge;
    private final AtomicReference<Instant> nextWarning;
    /** {@link #dropped()} when the last warning was logged. */
    private final AtomicLong droppedWhenWarned = new AtomicLong();

    /**
     * @param name what the store is called in logs and metrics (the mode)
     * @param maxEntries the most entries held
     * @param maxChars the most characters the entries weigh together
     * @param purgeInterval the least time between two sweeps of expired entries, and between two
     *     warnings of live entries dropped
     * @param weigher what a value weighs (the key's characters are added)
     */
    public InMemoryIntrospectionStore(
            String name,
            Clock clock,
            int maxEntries,
            long maxChars,
            Duration purgeInterval,
            ToLongFunction<? super V> weigher) {
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("purgeInterval must be positive");
        }
        if (maxEntries < 1 || maxChars < 1) {
            throw new IllegalArgumentException("maxEntries and maxChars must be positive");
        }
        this.name = Objects.requireNonNull(name, "name");
        this.clock = clock;
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
        this.purgeInterval = purgeInterval;
        this.weigher = Objects.requireNonNull(weigher, "weigher");
        Instant now = clock.instant();
        this.nextPurge = new AtomicReference<>(now.plus(purgeInterval));
        this.nextWarning = new AtomicReference<>(now);
    }

    /**
     * The store of one mode's introspection entries, bounded by {@code properties}, each entry
     * weighing {@link IntrospectionEntry#chars()}.
     */
    public static <E extends IntrospectionEntry> InMemoryIntrospectionStore<E> of(
            String name, Clock clock, IntrospectionProperties properties) {
        return new InMemoryIntrospectionStore<>(
                name,
                clock,
                properties.maxEntries(),
                properties.maxCharsOrDefault(),
                properties.purgeInterval(),
                IntrospectionEntry::chars);
    }

    @Override
    public void put(String key, V value, Instant expiresAt) {
        Entry<V> entry = new Entry<>(key, value, weigh(key, value), expiresAt);
        Entry<V> replaced = entries.put(key, entry);
        if (replaced == null) {
            size.incrementAndGet();
            chars.addAndGet(entry.chars);
        } else {
            chars.addAndGet(entry.chars - replaced.chars);
        }
        order.add(entry);
        Instant now = clock.instant();
        sweepIfDue(now);
        trim(now);
    }

    @Override
    public Optional<V> get(String key) {
        Entry<V> e = entries.get(key);
        if (e == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(e.expiresAt)) {
            drop(e, false);
            return Optional.empty();
        }
        return Optional.of(e.value);
    }

    @Override
    public void replace(String key, V value) {
        long[] delta = {0};
        entries.computeIfPresent(key, (k, e) -> {
            long weight = weigh(k, value);
            delta[0] = weight - e.chars;
            e.value = value;
            e.chars = weight;
            return e;
        });
        if (delta[0] != 0) {
            chars.addAndGet(delta[0]);
            trim(clock.instant());
        }
    }

    /** Drops the expired entries now, unless a sweep ran less than {@code purgeInterval} ago. */
    public void sweep() {
        sweepIfDue(clock.instant());
    }

    /** The store's name (its mode). */
    public String name() {
        return name;
    }

    /** The number of entries held (live or not yet dropped). */
    public int size() {
        return size.get();
    }

    /** The characters the held entries weigh together. */
    public long chars() {
        return chars.get();
    }

    /** How many live entries were dropped because a bound was passed, since the start. */
    public long dropped() {
        return dropped.sum();
    }

    private long weigh(String key, V value) {
        return key.length() + Math.max(0, weigher.applyAsLong(value));
    }

    private void sweepIfDue(Instant now) {
        Instant due = nextPurge.get();
        if (now.isBefore(due) || !nextPurge.compareAndSet(due, now.plus(purgeInterval))) {
            return;
        }
        entries.forEach((k, e) -> {
            if (!now.isBefore(e.expiresAt)) {
                drop(e, false);
            }
        });
        order.removeIf(e -> entries.get(e.key) != e);
    }

    /** Drops the oldest entries until both bounds hold; constant time per entry dropped. */
    private void trim(Instant now) {
        boolean droppedLive = false;
        while (size.get() > maxEntries || chars.get() > maxChars) {
            Entry<V> oldest = order.poll();
            if (oldest == null) {
                break;
            }
            boolean alive = now.isBefore(oldest.expiresAt);
            droppedLive |= drop(oldest, alive) && alive;
        }
        if (droppedLive) {
            warn(now);
        }
    }

    private boolean drop(Entry<V> e, boolean alive) {
        if (!entries.remove(e.key, e)) {
            return false;
        }
        size.decrementAndGet();
        chars.addAndGet(-e.chars);
        if (alive) {
            dropped.increment();
        }
        return true;
    }

    private void warn(Instant now) {
        Instant due = nextWarning.get();
        if (!now.isBefore(due) && nextWarning.compareAndSet(due, now.plus(purgeInterval))) {
            long total = dropped.sum();
            long since = total - droppedWhenWarned.getAndSet(total);
            log.warn(
                    "introspection store {} is full ({} entries, {} characters; bounds {} and {}): {} live records"
                            + " dropped since the last warning, {} since the start; their documents can no longer be"
                            + " introspected. Raise spiffeidt.asserting.introspection.max-chars / max-entries and"
                            + " the heap, or shorten the documents' lifetime",
                    name,
                    size.get(),
                    chars.get(),
                    maxEntries,
                    maxChars,
                    since,
                    total);
        }
    }
}
