package io.spiffeidt.asserting.introspection;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>Bounded three ways: by entries and by characters for the whole store, each entry weighing what
 * its weigher says (a kept OAuth proof is about 85,000 characters at 80 rounds, a pending OAuth token
 * about a thousand), and by entries per owner (the user a document was minted for). A put over its
 * owner's bound drops that owner's own oldest entry. A put over a store bound drops the putting
 * owner's own oldest entries first, and only when the owner holds no other entry the store's oldest:
 * one user minting thousands of documents replaces their own records and never pushes out another
 * user's. Without the character bound, the proofs of a burst of mints filled the heap and the process
 * did not recover; without the owner's share, one user's burst dropped every other user's records.
 * A live entry of another owner dropped for a store bound is counted ({@link #dropped()}) and logged
 * at most once per {@code purgeInterval}: the document it belongs to can no longer be introspected
 * (subject-wl then mints a new one). An owner's own entries replaced under its bound are counted
 * apart ({@link #replacedByOwner()}).
 *
 * <p>Expired entries are dropped when read, and by a sweep run at most once per {@code
 * purgeInterval}, by a {@link #put} or by {@link #sweep()} (called on a schedule by {@link
 * IntrospectionSweeper}, so a store nobody writes to any more is emptied too).
 *
 * <p>Thread safety: thread safe; reads take no lock, writes take one (a write follows a mint, whose
 * proof costs milliseconds).
 *
 * @param <V> the kept value
 */
public final class InMemoryIntrospectionStore<V> implements IntrospectionStore<V> {

    private static final Logger log = LoggerFactory.getLogger(InMemoryIntrospectionStore.class);

    /** One kept value; identity matters (the order queues hold entries, not keys). */
    private static final class Entry<V> {
        final String key;
        final String owner;
        final Instant expiresAt;
        /** Written under the store's lock. */
        volatile V value;

        long chars;

        Entry(String key, String owner, V value, long chars, Instant expiresAt) {
            this.key = key;
            this.owner = owner;
            this.value = value;
            this.chars = chars;
            this.expiresAt = expiresAt;
        }
    }

    private final String name;
    private final ConcurrentHashMap<String, Entry<V>> entries = new ConcurrentHashMap<>();
    /** Entries in the order they were put; dropped ones stay until polled or compacted (guarded by this). */
    private final ArrayDeque<Entry<V>> order = new ArrayDeque<>();
    /** Each owner's entries, oldest first (guarded by this). */
    private final Map<String, ArrayDeque<Entry<V>>> byOwner = new HashMap<>();

    /** Guarded by this. */
    private int size;
    /** Guarded by this. */
    private long chars;

    private final LongAdder dropped = new LongAdder();
    private final LongAdder replacedByOwner = new LongAdder();
    private final Clock clock;
    private final int maxEntries;
    private final long maxChars;
    private final int maxEntriesPerOwner;
    private final Duration purgeInterval;
    private final ToLongFunction<? super V> weigher;
    private final AtomicReference<Instant> nextPurge;
    private final AtomicReference<Instant> nextWarning;
    /** {@link #dropped()} when the last warning was logged. */
    private final AtomicLong droppedWhenWarned = new AtomicLong();

    /**
     * A store without a bound per owner (every owner may hold up to {@code maxEntries}).
     *
     * @see #InMemoryIntrospectionStore(String, Clock, int, long, int, Duration, ToLongFunction)
     */
    public InMemoryIntrospectionStore(
            String name,
            Clock clock,
            int maxEntries,
            long maxChars,
            Duration purgeInterval,
            ToLongFunction<? super V> weigher) {
        this(name, clock, maxEntries, maxChars, maxEntries, purgeInterval, weigher);
    }

    /**
     * @param name what the store is called in logs and metrics (the mode)
     * @param maxEntries the most entries held
     * @param maxChars the most characters the entries weigh together
     * @param maxEntriesPerOwner the most entries one owner holds
     * @param purgeInterval the least time between two sweeps of expired entries, and between two
     *     warnings of live entries dropped
     * @param weigher what a value weighs (the key's characters are added)
     */
    public InMemoryIntrospectionStore(
            String name,
            Clock clock,
            int maxEntries,
            long maxChars,
            int maxEntriesPerOwner,
            Duration purgeInterval,
            ToLongFunction<? super V> weigher) {
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("purgeInterval must be positive");
        }
        if (maxEntries < 1 || maxChars < 1 || maxEntriesPerOwner < 1) {
            throw new IllegalArgumentException("maxEntries, maxChars and maxEntriesPerOwner must be positive");
        }
        this.name = Objects.requireNonNull(name, "name");
        this.clock = clock;
        this.maxEntries = maxEntries;
        this.maxChars = maxChars;
        this.maxEntriesPerOwner = maxEntriesPerOwner;
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
    public static InMemoryIntrospectionStore<IntrospectionEntry> of(
            String name, Clock clock, IntrospectionProperties properties) {
        return new InMemoryIntrospectionStore<>(
                name,
                clock,
                properties.maxEntries(),
                properties.maxCharsOrDefault(),
                properties.maxEntriesPerUser(),
                properties.purgeInterval(),
                IntrospectionEntry::chars);
    }

    @Override
    public void put(String key, String owner, V value, Instant expiresAt) {
        Objects.requireNonNull(owner, "owner");
        Entry<V> entry = new Entry<>(key, owner, value, weigh(key, value), expiresAt);
        Instant now = clock.instant();
        boolean droppedLive;
        synchronized (this) {
            Entry<V> replaced = entries.get(key);
            if (replaced != null) {
                remove(replaced);
            }
            entries.put(key, entry);
            size++;
            chars += entry.chars;
            order.add(entry);
            ArrayDeque<Entry<V>> own = byOwner.computeIfAbsent(owner, o -> new ArrayDeque<>());
            own.add(entry);
            while (own.size() > maxEntriesPerOwner) {
                remove(own.peekFirst());
                replacedByOwner.increment();
            }
            sweepIfDue(now);
            droppedLive = trim(own, now);
            compactIfStale();
        }
        if (droppedLive) {
            warn(now);
        }
    }

    @Override
    public Optional<V> get(String key) {
        Entry<V> e = entries.get(key);
        if (e == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(e.expiresAt)) {
            synchronized (this) {
                if (entries.get(key) == e) {
                    remove(e);
                }
            }
            return Optional.empty();
        }
        V value = e.value;
        return value == null ? Optional.empty() : Optional.of(value);
    }

    @Override
    public void replace(String key, V value) {
        Instant now = clock.instant();
        boolean droppedLive = false;
        synchronized (this) {
            Entry<V> e = entries.get(key);
            if (e == null) {
                return;
            }
            long weight = weigh(key, value);
            chars += weight - e.chars;
            e.chars = weight;
            e.value = value;
            ArrayDeque<Entry<V>> own = byOwner.get(e.owner);
            if (own != null) {
                droppedLive = trim(own, now);
            }
        }
        if (droppedLive) {
            warn(now);
        }
    }

    /** Drops the expired entries now, unless a sweep ran less than {@code purgeInterval} ago. */
    public void sweep() {
        synchronized (this) {
            sweepIfDue(clock.instant());
        }
    }

    /** The store's name (its mode). */
    public String name() {
        return name;
    }

    /** The number of entries held (live or not yet dropped). */
    public synchronized int size() {
        return size;
    }

    /** The characters the held entries weigh together. */
    public synchronized long chars() {
        return chars;
    }

    /** How many live entries were dropped because a store bound was passed, since the start. */
    public long dropped() {
        return dropped.sum();
    }

    /** How many entries were replaced by a newer one of the same owner over the owner's bound, since the start. */
    public long replacedByOwner() {
        return replacedByOwner.sum();
    }

    /** The entries {@code owner} holds now. */
    public synchronized int heldBy(String owner) {
        ArrayDeque<Entry<V>> own = byOwner.get(owner);
        return own == null ? 0 : own.size();
    }

    private long weigh(String key, V value) {
        return key.length() + Math.max(0, weigher.applyAsLong(value));
    }

    /** Under the lock. */
    private void sweepIfDue(Instant now) {
        Instant due = nextPurge.get();
        if (now.isBefore(due) || !nextPurge.compareAndSet(due, now.plus(purgeInterval))) {
            return;
        }
        for (Entry<V> e : entries.values()) {
            if (!now.isBefore(e.expiresAt)) {
                remove(e);
            }
        }
        order.removeIf(e -> entries.get(e.key) != e);
    }

    /**
     * Under the lock: drops entries until both store bounds hold, the putting owner's ({@code own})
     * oldest first while it holds more than the newest, then the store's oldest. Whether a live entry
     * of another owner was dropped.
     */
    private boolean trim(ArrayDeque<Entry<V>> own, Instant now) {
        boolean droppedLive = false;
        while (size > maxEntries || chars > maxChars) {
            if (own.size() > 1) {
                remove(own.peekFirst());
                replacedByOwner.increment();
                continue;
            }
            Entry<V> oldest = order.poll();
            if (oldest == null) {
                break;
            }
            if (entries.get(oldest.key) != oldest) {
                continue;
            }
            boolean alive = now.isBefore(oldest.expiresAt);
            remove(oldest);
            if (alive) {
                dropped.increment();
                droppedLive = true;
            }
        }
        return droppedLive;
    }

    /** Under the lock: forgets {@code e} everywhere but in the store's order queue (dropped there lazily). */
    private void remove(Entry<V> e) {
        if (!entries.remove(e.key, e)) {
            return;
        }
        size--;
        chars -= e.chars;
        e.value = null;
        ArrayDeque<Entry<V>> own = byOwner.get(e.owner);
        if (own != null) {
            own.remove(e);
            if (own.isEmpty()) {
                byOwner.remove(e.owner);
            }
        }
    }

    /** Under the lock: the order queue keeps no more dropped entries than it keeps live ones (and a few). */
    private void compactIfStale() {
        if (order.size() > 2 * size + 64) {
            order.removeIf(e -> entries.get(e.key) != e);
        }
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
                    size(),
                    chars(),
                    maxEntries,
                    maxChars,
                    since,
                    total);
        }
    }
}
