package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.internal.TextMemo;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;

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
    static final long DEFAULT_MAX_CHARS = TextMemo.DEFAULT_MAX_CHARS;

    private final TextMemo<Entry> memo;

    /** A memo of at most {@code capacity} layers (0 = remember nothing) and {@link #DEFAULT_MAX_CHARS}. */
    VerifiedLayers(int capacity) {
        this(capacity, DEFAULT_MAX_CHARS);
    }

    /** A memo of at most {@code capacity} layers and {@code maxChars} characters of their text. */
    VerifiedLayers(int capacity, long maxChars) {
        this.memo = new TextMemo<>(capacity, maxChars);
    }

    /**
     * Whether chain token {@code index} of {@code decoded}, with this {@code signature}, was verified
     * before with {@code key}.
     */
    boolean holds(LsvidCodec.Decoded decoded, int index, byte[] signature, ECPublicKey key) {
        if (!memo.remembers()) {
            return false;
        }
        Entry e = memo.get(bySignature(signature));
        if (e == null || !(e.key() == key || e.key().equals(key)) || !decoded.tokenJsonEquals(index, e.text())) {
            return false;
        }
        memo.hit();
        return true;
    }

    /** Remembers that chain token {@code index} of {@code decoded} verified with {@code key}. */
    void remember(LsvidCodec.Decoded decoded, int index, byte[] signature, ECPublicKey key) {
        if (!memo.remembers()) {
            return;
        }
        String text = decoded.tokenJson(index);
        memo.put(bySignature(signature), new Entry(text, key), text.length());
    }

    /** How many layers are remembered. */
    int size() {
        return memo.size();
    }

    /** How many characters of layer text are remembered. */
    long chars() {
        return memo.chars();
    }

    /** How many times a remembered layer was found. */
    long hits() {
        return memo.hits();
    }

    private static String bySignature(byte[] signature) {
        return new String(signature, StandardCharsets.ISO_8859_1);
    }
}
