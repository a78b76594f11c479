package io.spiffeidt.core.memo;

import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * The one memo of SPIFFE-IdT (docs/design.md "Memos"): a named, bounded map from keys to work
 * already done, used by every verifier and hop that skips work it did before. The only class that
 * evicts.
 *
 * <p>Bounded by entries ({@link MemoSettings#size()}) and by characters ({@link
 * MemoSettings#maxChars()}, each entry weighing what its owner gives: the text it holds); when
 * either bound is passed the least recently used entries go. An entry heavier than the whole
 * character budget is not kept. Each entry is used until its {@link Expiry} rule or the settings'
 * TTL ends it, whichever comes first; an entry already expired when it is remembered is not kept.
 * With settings that {@linkplain MemoSettings#remembers() remember nothing} every lookup misses
 * silently and nothing is kept.
 *
 * <p>A memo may skip work, never a check: its owner keys it by exactly what the work depends on and
 * re-checks on every hit what can change between two uses (time, audience, caller, trust bundle,
 * key set), passing that check as the {@code usable} test of {@link #get(Object, Predicate)} or
 * running it after the lookup.
 *
 * <p>Thread safety: safe for concurrent use (one lock per memo); the {@link MemoEvents} are called
 * outside it.
 *
 * @param <K> what an entry is found by (compared with {@code equals})
 * @param <V> what is remembered
 */
public final class Memo<K, V> {

    private record Entry<V>(V value, long chars, Instant until) {}

    private final String name;
    private final MemoSettings settings;
    private final boolean remembers;
    private final Expiry<? super V> expiry;
    private final Clock clock;
    private final MemoEvents events;
    private final LinkedHashMap<K, Entry<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final LongAdder hits = new LongAdder();
    /** The summed weight of the entries; guarded by {@code entries}. */
    private long chars;

    /**
     * A memo.
     *
     * @param name what the memo is called in settings and metrics ({@code lsvid-chain}, ...)
     * @param settings its bounds and TTL
     * @param expiry when an entry stops being used
     * @param clock the time the expiry is measured in
     * @param events where hits, misses and evictions are reported
     */
    public Memo(String name, MemoSettings settings, Expiry<? super V> expiry, Clock clock, MemoEvents events) {
        this.name = Objects.requireNonNull(name, "name");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.expiry = Objects.requireNonNull(expiry, "expiry");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.events = Objects.requireNonNull(events, "events");
        this.remembers = settings.remembers();
        events.created(this);
    }

    /** A memo that remembers nothing, named {@code name}. */
    public static <K, V> Memo<K, V> off(String name) {
        return new Memo<>(name, MemoSettings.OFF, Expiry.ttl(), Clock.systemUTC(), MemoEvents.NONE);
    }

    /** The memo's name. */
    public String name() {
        return name;
    }

    /** The memo's settings. */
    public MemoSettings settings() {
        return settings;
    }

    /** Whether this memo remembers anything (see {@link MemoSettings#remembers()}). */
    public boolean remembers() {
        return remembers;
    }

    /** The value remembered under {@code key} and not expired, or {@code null}. */
    public V get(K key) {
        return get(key, value -> true);
    }

    /**
     * The value remembered under {@code key}, not expired, and passing {@code usable}, or {@code
     * null}; a hit is counted only for a value returned. {@code usable} runs outside the lock.
     */
    public V get(K key, Predicate<? super V> usable) {
        if (!remembers || key == null) {
            return null;
        }
        // outside the lock: a String key computes (and keeps) its hash here, and a document's runs to
        // thousands of characters
        int unused = key.hashCode();
        Instant now = clock.instant();
        Entry<V> e;
        boolean expired = false;
        synchronized (entries) {
            e = entries.get(key);
            if (e != null && e.until() != null && !now.isBefore(e.until())) {
                entries.remove(key);
                chars -= e.chars();
                expired = true;
                e = null;
            }
        }
        if (expired) {
            events.evicted(name);
        }
        if (e == null || !usable.test(e.value())) {
            events.miss(name);
            return null;
        }
        hits.increment();
        events.hit(name);
        return e.value();
    }

    /** Remembers {@code value} under {@code key}, weighing nothing against the character budget. */
    public void put(K key, V value) {
        put(key, value, 0);
    }

    /** Remembers {@code value} under {@code key}, weighing {@code chars} characters. */
    public void put(K key, V value, long chars) {
        Objects.requireNonNull(value, "value");
        if (!remembers || key == null || chars < 0 || chars > settings.maxChars()) {
            return;
        }
        Instant now = clock.instant();
        Instant until = expiry.until(value, now);
        if (settings.ttl() != null) {
            Instant cap = now.plus(settings.ttl());
            until = until == null || cap.isBefore(until) ? cap : until;
        }
        if (until != null && !now.isBefore(until)) {
            return;
        }
        int unused = key.hashCode(); // outside the lock, as in get
        int evicted = 0;
        synchronized (entries) {
            Entry<V> replaced = entries.put(key, new Entry<>(value, chars, until));
            this.chars += chars - (replaced == null ? 0 : replaced.chars());
            Iterator<Entry<V>> eldest = entries.values().iterator();
            while (entries.size() > settings.size() || this.chars > settings.maxChars()) {
                Entry<V> out = eldest.next();
                eldest.remove();
                this.chars -= out.chars();
                evicted++;
            }
        }
        for (int i = 0; i < evicted; i++) {
            events.evicted(name);
        }
    }

    /** Forgets what is remembered under {@code key}. */
    public void remove(K key) {
        synchronized (entries) {
            Entry<V> e = entries.remove(key);
            if (e != null) {
                chars -= e.chars();
            }
        }
    }

    /** How many entries are remembered (expired ones included until asked for or pushed out). */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** How many characters the remembered entries weigh. */
    public long chars() {
        synchronized (entries) {
            return chars;
        }
    }

    /** How many times a remembered value was used. */
    public long hits() {
        return hits.sum();
    }

    @Override
    public String toString() {
        return "Memo[" + name + ", " + settings + "]";
    }
}
