package io.spiffeidt.core.lsvid;

import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded memo of the layers of LSVID documents whose signature verified, so that the layers a
 * document keeps for its life (the subject workload's request and the asserting workload's
 * delegation ride unchanged in every request made with it, and the outermost one while the hop
 * that signed it reuses it) are not verified again on every request. Package-private.
 *
 * <p>Sound because a layer's signature check is a function of the layer token's canonical text
 * (its signing input is that text with the signature set to {@code null}, and its signature is in
 * the text) and of the key that checks it, nothing else: a hit requires the exact same text, found
 * by its signature and compared in full, and the same key, which the caller has established in
 * this very call from the layer's {@code iss.id} (anchored against the bundle and the time, as
 * always). Every other check of the layer (links, times, delegation) runs on every call. Only
 * successes are kept.
 *
 * <p>A layer's text holds every layer it wraps, so the memo is bounded in characters as well as in
 * entries ({@link #DEFAULT_MAX_CHARS}): it is cleared when either is full, and a layer longer than
 * the whole budget is not remembered.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedLayers {

    private record Entry(String text, ECPublicKey key) {}

    /** How many characters of layer text a memo holds at most: 8 Mi (the texts are Latin-1, 8 MiB). */
    static final long DEFAULT_MAX_CHARS = 8L << 20;

    private final int capacity;
    private final long maxChars;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong chars = new AtomicLong();
    private final LongAdder hits = new LongAdder();

    /** A memo of at most {@code capacity} layers (0 = remember nothing) and {@link #DEFAULT_MAX_CHARS}. */
    VerifiedLayers(int capacity) {
        this(capacity, DEFAULT_MAX_CHARS);
    }

    /** A memo of at most {@code capacity} layers and {@code maxChars} characters of their text. */
    VerifiedLayers(int capacity, long maxChars) {
        if (capacity < 0 || maxChars < 0) {
            throw new IllegalArgumentException("capacity and maxChars must not be negative");
        }
        this.capacity = capacity;
        this.maxChars = maxChars;
    }

    /**
     * Whether chain token {@code index} of {@code decoded}, with this {@code signature}, was verified
     * before with {@code key}.
     */
    boolean holds(LsvidCodec.Decoded decoded, int index, byte[] signature, ECPublicKey key) {
        if (capacity == 0) {
            return false;
        }
        Entry e = entries.get(bySignature(signature));
        if (e == null || !(e.key() == key || e.key().equals(key)) || !decoded.tokenJsonEquals(index, e.text())) {
            return false;
        }
        hits.increment();
        return true;
    }

    /** Remembers that chain token {@code index} of {@code decoded} verified with {@code key}. */
    void remember(LsvidCodec.Decoded decoded, int index, byte[] signature, ECPublicKey key) {
        if (capacity == 0) {
            return;
        }
        String text = decoded.tokenJson(index);
        if (text.length() > maxChars) {
            return;
        }
        if (entries.size() >= capacity || chars.get() + text.length() > maxChars) {
            entries.clear();
            chars.set(0);
        }
        Entry replaced = entries.put(bySignature(signature), new Entry(text, key));
        chars.addAndGet(
                replaced == null
                        ? text.length()
                        : text.length() - replaced.text().length());
    }

    /** How many layers are remembered. */
    int size() {
        return entries.size();
    }

    /** How many characters of layer text are remembered. */
    long chars() {
        return chars.get();
    }

    /** How many times a remembered layer was found. */
    long hits() {
        return hits.sum();
    }

    private static String bySignature(byte[] signature) {
        return new String(signature, StandardCharsets.ISO_8859_1);
    }
}
