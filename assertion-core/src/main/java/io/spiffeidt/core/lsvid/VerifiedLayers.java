package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.Memos;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.security.interfaces.ECPublicKey;

/**
 * The memo of the layers of LSVID documents whose signature verified, so that the layers a
 * document keeps for its life (the subject workload's request and the asserting workload's
 * delegation ride unchanged in every request made with it, and the outermost one while the hop
 * that signed it reuses it) are not verified again on every request. Package-private.
 *
 * <p>Sound because a layer's signature check is a function of the layer token's canonical text
 * (its signing input is that text with the signature set to {@code null}, and its signature is in
 * the text) and of the key that checks it, nothing else: a hit requires the exact same text, found
 * by its signature and compared in full (or the very text compared before: the same token of the same
 * immutable decoded document), and an equal key, which the caller has established in
 * this very call from the layer's {@code iss.id} (anchored against the bundle and the time, as
 * always). Every other check of the layer (links, times, delegation) runs on every call. Only
 * successes are kept.
 *
 * <p>The {@link Memo} {@code lsvid-layer}. A layer's text holds every layer it wraps, so each entry
 * weighs its text's length against the memo's character budget.
 *
 * <p>The comparison is cheap on the common path: an entry also points (weakly) at the decoded
 * document it was last found in and at the key instance it was checked with, so a document presented
 * again (the same {@link LsvidCodec.Decoded}, as the memo of decoded documents gives it back) is
 * recognised by identity, not by comparing thousands of characters and a key's encoding on every
 * request. A match found the slow way (another document with the same layer, or an equal key in
 * another instance) moves the entry to the current ones.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedLayers {

    /** A verified layer: its text, the key that checked it, where it was last found (index in that document). */
    private record Entry(String text, ECPublicKey key, WeakReference<LsvidCodec.Decoded> foundIn, int index) {

        boolean isIn(LsvidCodec.Decoded decoded, int at) {
            return index == at && foundIn.get() == decoded;
        }
    }

    /** The name of this memo in settings and metrics. */
    static final String NAME = "lsvid-layer";

    private final Memo<String, Entry> memo;

    /** The memo {@link #NAME} of {@code memos}. */
    VerifiedLayers(Memos memos) {
        this.memo = memos.memo(NAME, Expiry.ttl());
    }

    /**
     * Whether chain token {@code index} of {@code decoded}, with this {@code signature}, was verified
     * before with {@code key}.
     */
    boolean holds(LsvidCodec.Decoded decoded, int index, byte[] signature, ECPublicKey key) {
        if (!memo.remembers()) {
            return false;
        }
        String found = bySignature(signature);
        Entry e = memo.get(
                found,
                x -> (x.isIn(decoded, index) || decoded.tokenJsonEquals(index, x.text()))
                        && (x.key() == key || x.key().equals(key)));
        if (e == null) {
            return false;
        }
        if (e.key() != key || !e.isIn(decoded, index)) {
            memo.put(
                    found,
                    new Entry(e.text(), key, new WeakReference<>(decoded), index),
                    e.text().length());
        }
        return true;
    }

    /** Remembers that chain token {@code index} of {@code decoded} verified with {@code key}. */
    void remember(LsvidCodec.Decoded decoded, int index, byte[] signature, ECPublicKey key) {
        if (!memo.remembers()) {
            return;
        }
        String text = decoded.tokenJson(index);
        memo.put(bySignature(signature), new Entry(text, key, new WeakReference<>(decoded), index), text.length());
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
