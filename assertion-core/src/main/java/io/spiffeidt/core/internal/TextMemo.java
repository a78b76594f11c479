package io.spiffeidt.core.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded map from text keys to remembered values, for the verifiers' memos of work done on
 * exact received text (LSVID layers and documents, ID-Mode and Anon-Mode tokens): at most {@code
 * capacity} entries and {@code maxChars} characters (each entry counts the length its owner gives,
 * the text it holds), cleared when either is full; an entry longer than the whole budget is not
 * kept. Internal to assertion-core.
 *
 * <p>Thread safety: safe for concurrent use; under a race the character count may briefly be off
 * by an entry, and the next clear resets it.
 *
 * @param <V> what is remembered
 */
public final class TextMemo<V> {

    /** How many characters a memo holds by default: 8 Mi. */
    public static final long DEFAULT_MAX_CHARS = 8L << 20;

    private record Sized<V>(V value, int chars) {}

    private final int capacity;
    private final long maxChars;
    private final ConcurrentHashMap<String, Sized<V>> entries = new ConcurrentHashMap<>();
    private final AtomicLong chars = new AtomicLong();
    private final LongAdder hits = new LongAdder();

    /** A memo of at most {@code capacity} entries (0 = remember nothing) and {@code maxChars} characters. */
    public TextMemo(int capacity, long maxChars) {
        if (capacity < 0 || maxChars < 0) {
            throw new IllegalArgumentException("capacity and maxChars must not be negative");
        }
        this.capacity = capacity;
        this.maxChars = maxChars;
    }

    /** Whether this memo remembers anything (capacity above 0). */
    public boolean remembers() {
        return capacity > 0;
    }

    /** The value remembered under {@code key}, or {@code null}; the caller counts a {@link #hit()}. */
    public V get(String key) {
        if (capacity == 0) {
            return null;
        }
        Sized<V> e = entries.get(key);
        return e == null ? null : e.value();
    }

    /** Counts one use of a remembered value. */
    public void hit() {
        hits.increment();
    }

    /** Remembers {@code value} under {@code key}, counting {@code length} characters. */
    public void put(String key, V value, int length) {
        if (capacity == 0 || length > maxChars) {
            return;
        }
        if (entries.size() >= capacity || chars.get() + length > maxChars) {
            entries.clear();
            chars.set(0);
        }
        Sized<V> replaced = entries.put(key, new Sized<>(value, length));
        chars.addAndGet(replaced == null ? length : length - replaced.chars());
    }

    /** How many entries are remembered. */
    public int size() {
        return entries.size();
    }

    /** How many characters the remembered entries count. */
    public long chars() {
        return chars.get();
    }

    /** How many times a remembered value was used. */
    public long hits() {
        return hits.sum();
    }
}
