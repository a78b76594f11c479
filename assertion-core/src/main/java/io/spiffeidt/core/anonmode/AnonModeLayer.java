package io.spiffeidt.core.anonmode;

import java.util.Objects;

/**
 * The result of signing one Anon-Mode layer ({@link AnonModeTokens}): the new token and what went
 * into it, for tests, vectors and diagnostics.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the complete new token (its last segment carries the full signature, whose {@code
 *     s} is the next hop's signing key: treat the token as a bearer secret)
 * @param payloadJson the exact JSON text of the new payload (sorted keys, compact)
 * @param signingInput the exact text that was signed: {@code P(0)} for the root, {@code P(k) + "."
 *     + stripped previous token} for a hop
 * @param publicKey the layer's key {@code Y = x·B} (its {@code iss})
 * @param signature the layer's signature {@code (R, s)}
 */
public record AnonModeLayer(
        String token, String payloadJson, String signingInput, Point publicKey, SchnorrSignature signature) {

    /** Requires every value. */
    public AnonModeLayer {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(payloadJson, "payloadJson");
        Objects.requireNonNull(signingInput, "signingInput");
        Objects.requireNonNull(publicKey, "publicKey");
        Objects.requireNonNull(signature, "signature");
    }

    /** Never shows the token (it is a bearer credential). */
    @Override
    public String toString() {
        return "AnonModeLayer[publicKey=" + publicKey.toHex() + ", tokenLength=" + token.length() + "]";
    }
}
