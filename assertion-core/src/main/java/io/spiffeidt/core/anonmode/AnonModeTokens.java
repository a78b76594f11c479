package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The low-level Anon-Mode token operations of docs/formats/anon-mode.md "Wire format", "Minting" and
 * "Extension", with the claims given by the caller. {@link AnonModeMinter} and {@link
 * AnonModeExtender} build the claims from the settings and the clock; use this class directly only
 * to reproduce exact documents (golden vectors, benchmarks).
 *
 * <p>The {@code iss} claim is always computed here (base64url of the layer's key) and must not be
 * in the given claims. Payload JSON has sorted keys and is compact, as the original's Go {@code
 * encoding/json} writes a map.
 *
 * <p>Thread safety: stateless (given a thread-safe {@link NonceSource}).
 */
public final class AnonModeTokens {

    private AnonModeTokens() {}

    /**
     * Signs a root layer: {@code P(0) . base64url(enc(R) ‖ enc(s))}.
     *
     * @param claims the root claims without {@code iss} (e.g. {@code aud, dpa, dpr, exp, iat})
     * @param rootKey the fresh root key {@code x0}
     * @param nonces where the nonce comes from
     * @return the one-layer token and its parts
     * @throws IllegalArgumentException when {@code claims} holds {@code iss}
     */
    public static AnonModeLayer signRoot(Map<String, ?> claims, SchnorrKeyPair rootKey, NonceSource nonces) {
        Objects.requireNonNull(rootKey, "rootKey");
        String payloadJson = payloadJson(claims, rootKey.publicKey());
        String payload = Codec.b64url(payloadJson);
        SchnorrSignature signature = Schnorr.sign(rootKey, payload, nonces);
        String token = payload + "." + Codec.b64url(signature.encode());
        return new AnonModeLayer(token, payloadJson, payload, rootKey.publicKey(), signature);
    }

    /**
     * Extends a complete token by one layer: the key is the previous signature's {@code s}, the
     * previous last segment is stripped to {@code R}, and {@code P(k) + "." + stripped} is signed.
     * Checks the token's shape, not its signatures: verify it first ({@link AnonModeVerifier}).
     *
     * @param token the complete token as received
     * @param claims the new layer's claims without {@code iss} (e.g. {@code exp, iat})
     * @param nonces where the nonce comes from
     * @param limits the limits the result must respect
     * @return the extended token and its parts
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the token is not a complete
     *     Anon-Mode token, {@link ErrorCode#LIMIT_EXCEEDED} when the result would exceed a limit
     * @throws IllegalArgumentException when {@code claims} holds {@code iss}
     */
    public static AnonModeLayer extend(String token, Map<String, ?> claims, NonceSource nonces, Limits limits) {
        return extend(AnonModeToken.parse(token, limits), claims, nonces, limits);
    }

    /**
     * {@link #extend(String, Map, NonceSource, Limits)} of a token already parsed under {@code
     * limits} (the extender reads its outermost claims first), so that it is not parsed twice.
     */
    static AnonModeLayer extend(AnonModeToken parsed, Map<String, ?> claims, NonceSource nonces, Limits limits) {
        int last = parsed.depth() - 1;
        limits.checkDepth(parsed.depth() + 1);
        Point.decode(parsed.commitment(last));
        Scalar previousResponse = Scalar.decode(parsed.finalResponse());
        if (previousResponse.isZero()) {
            throw new AssertionException(ErrorCode.MALFORMED, last, "outermost response is zero");
        }
        SchnorrKeyPair key = SchnorrKeyPair.of(previousResponse);
        String payloadJson = payloadJson(claims, key.publicKey());
        String signingInput = Codec.b64url(payloadJson) + "." + parsed.stripped();
        SchnorrSignature signature = Schnorr.sign(key, signingInput, nonces);
        String extended = signingInput + "." + Codec.b64url(signature.encode());
        limits.checkEncodedSize(extended.length());
        return new AnonModeLayer(extended, payloadJson, signingInput, key.publicKey(), signature);
    }

    /**
     * The root identifier {@code P(0) . base64url(enc(R_0))} of a token: what the asserting
     * workload records at minting and answers introspection for (docs/formats/anon-mode.md "Minting",
     * "Verification" step 5). Checks the token's shape only.
     *
     * @param token a complete token
     * @param limits the limits
     * @return the root identifier
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static String rootIdentifier(String token, Limits limits) {
        return AnonModeToken.parse(token, limits).rootIdentifier();
    }

    private static String payloadJson(Map<String, ?> claims, Point key) {
        Objects.requireNonNull(claims, "claims");
        if (claims.containsKey("iss")) {
            throw new IllegalArgumentException("iss is computed from the layer key and must not be given");
        }
        TreeMap<String, Object> sorted = new TreeMap<>(claims);
        sorted.put("iss", key.toBase64Url());
        return Json.write(sorted);
    }
}
