package io.spiffeidt.core.lsvid;

import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded memo of the inner layers of LSVID documents whose signature verified, so that the
 * layers a document keeps for its life (the subject workload's request and the asserting
 * workload's delegation ride unchanged in every request made with it) are not verified again on
 * every request. Package-private.
 *
 * <p>Sound because a layer's signature check is a function of the layer token's canonical text
 * (its signing input is that text with the signature set to {@code null}, and its signature is in
 * the text) and of the key that checks it, nothing else: a hit requires the exact same text, found
 * by its signature and compared in full, and the same key, which the caller has established in
 * this very call from the layer's {@code iss.id} (anchored against the bundle and the time, as
 * always). Every other check of the layer (links, times, delegation) runs on every call. Only
 * successes are kept; a full memo is cleared. The outermost layer is new with every request and is
 * never remembered.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedLayers {

    private record Entry(String text, ECPublicKey key) {}

    private final int capacity;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();

    /** A memo of at most {@code capacity} layers (0 = remember nothing). */
    VerifiedLayers(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
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
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(bySignature(signature), new Entry(decoded.tokenJson(index), key));
    }

    /** How many layers are remembered. */
    int size() {
        return entries.size();
    }

    /** How many times a remembered layer was found. */
    long hits() {
        return hits.sum();
    }

    private static String bySignature(byte[] signature) {
        return new String(signature, StandardCharsets.ISO_8859_1);
    }
}
