package io.spiffeidt.core.lsvid;

import java.util.Arrays;
import java.util.Objects;

/**
 * One LSVID token (docs/formats/lsvid.md "Structure"): {@code {nested, payload, signature}} where
 * {@code nested} is omitted when absent and {@code signature} (std base64 of a DER ECDSA
 * signature) is written as {@code null} when absent.
 *
 * <p>A token without {@code nested} is a base token; a token with one is an extension layer over
 * {@code nested}. Byte arrays are copied in and out; {@code toString()} never prints token
 * contents.
 *
 * <p>A signed token may remember its canonical JSON text once it is known (written, decoded and
 * found canonical, or signed by {@link LsvidExtender}), so that writing a chain that contains it
 * appends the text instead of serializing the token again. The text is derived from the token's
 * own immutable content and is not part of {@link #equals}.
 *
 * <p>Thread safety: immutable (the remembered text is set at most to one value, a racy but benign
 * cache like {@link String#hashCode()}).
 */
public final class LsvidToken {

    private final LsvidToken nested;
    private final LsvidPayload payload;
    private final byte[] signature;

    /** The canonical JSON of this token with its signature, once known; null before. */
    private String json;

    /**
     * A token.
     *
     * @param nested the token this one extends, or {@code null} for a base token
     * @param payload the claims; never {@code null}
     * @param signature DER ECDSA signature, or {@code null} when unsigned (copied)
     */
    public LsvidToken(LsvidToken nested, LsvidPayload payload, byte[] signature) {
        this.nested = nested;
        this.payload = Objects.requireNonNull(payload, "payload");
        this.signature = signature == null ? null : signature.clone();
    }

    /** The token this one extends, or {@code null} for a base token. */
    public LsvidToken nested() {
        return nested;
    }

    /** The claims. */
    public LsvidPayload payload() {
        return payload;
    }

    /** A copy of the signature bytes, or {@code null}. */
    public byte[] signature() {
        return signature == null ? null : signature.clone();
    }

    /** Whether this is a base token (nothing nested). */
    public boolean isBase() {
        return nested == null;
    }

    /** The number of tokens in this chain, this one included (iterative, no recursion). */
    public int depth() {
        int n = 0;
        for (LsvidToken t = this; t != null; t = t.nested) {
            n++;
        }
        return n;
    }

    /** The innermost (base) token of this chain. */
    public LsvidToken innermost() {
        LsvidToken t = this;
        while (t.nested != null) {
            t = t.nested;
        }
        return t;
    }

    byte[] signatureRaw() {
        return signature;
    }

    /** The canonical JSON of this token with its signature, when known; otherwise null. */
    String knownJson() {
        return json;
    }

    /**
     * Remembers {@code canonical} as this token's canonical JSON with its signature. The caller
     * guarantees it is exactly what {@link LsvidJsonWriter} writes for this token; a token without
     * signature remembers nothing (its text is not the one a chain contains).
     */
    void rememberJson(String canonical) {
        if (signature != null) {
            json = canonical;
        }
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof LsvidToken)) {
            return false;
        }
        LsvidToken a = this;
        LsvidToken b = (LsvidToken) o;
        while (a != null && b != null) {
            if (a == b) {
                return true;
            }
            if (!a.payload.equals(b.payload) || !Arrays.equals(a.signature, b.signature)) {
                return false;
            }
            a = a.nested;
            b = b.nested;
        }
        return a == null && b == null;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (LsvidToken t = this; t != null; t = t.nested) {
            h = 31 * h + t.payload.hashCode();
            h = 31 * h + Arrays.hashCode(t.signature);
        }
        return h;
    }

    @Override
    public String toString() {
        return "LsvidToken[depth=" + depth() + ", iss="
                + (payload.iss() == null ? null : payload.iss().cn()) + ", aud="
                + (payload.aud() == null ? null : payload.aud().cn()) + "]";
    }
}
