package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Jwks;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.util.Map;

/**
 * The DVID key as a JSON Web Key Set (docs/formats/dvid.md "Signing key": published at {@code GET
 * /dvid/keys}) and back: RFC 7517 JWKs with public parameters only, {@code kid} = the RFC 7638
 * thumbprint, {@code alg} and {@code use}. Also reads a single JWK.
 *
 * <p>Reading fails closed: malformed JSON, a private member, a duplicate {@code kid} or a bad
 * encoding is {@link ErrorCode#MALFORMED}; an unknown {@code kty}, {@code crv}, {@code alg} or
 * {@code use}, or a key too weak, is {@link ErrorCode#UNSUPPORTED}.
 *
 * <p>Thread safety: stateless.
 */
public final class DvidKeys {

    /** Largest JWKS text read, characters. */
    public static final int MAX_JWKS_LENGTH = Jwks.MAX_LENGTH;

    /** Most keys in one JWKS. */
    public static final int MAX_KEYS = Jwks.MAX_KEYS;

    private DvidKeys() {}

    /**
     * The RFC 7638 JWK thumbprint (SHA-256, base64url) of an RSA or P-256 public key.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} for another key type
     */
    public static String thumbprint(PublicKey key) {
        return Jwks.thumbprint(key);
    }

    /** The JWK of {@code key} with {@code kid} = its thumbprint. */
    public static String jwk(PublicKey key) {
        return jwk(key, thumbprint(key));
    }

    /**
     * The JWK of {@code key} (public parameters, {@code kid}, {@code alg}, {@code use: sig}), compact
     * with sorted members.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} for a key type or size DVIDs do not use
     */
    public static String jwk(PublicKey key, String kid) {
        return Jwks.jwk(key, kid);
    }

    /** The JWKS {@code {"keys":[...]}} of the given keys, each with {@code kid} = its thumbprint. */
    public static String jwks(PublicKey... keys) {
        return Jwks.jwks(keys);
    }

    /**
     * The JWKS {@code {"keys":[...]}} of the given {@code kid → key} entries (in iteration order).
     */
    public static String jwks(Map<String, ? extends PublicKey> keysById) {
        return Jwks.jwks(keysById);
    }

    /**
     * Reads a JWKS into {@code kid → key} (a missing {@code kid} reads as {@code ""}), in document
     * order. Keys are built with {@code provider}'s {@link KeyFactory}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNSUPPORTED} or
     *     {@link ErrorCode#LIMIT_EXCEEDED} (too long, too many keys)
     */
    public static Map<String, PublicKey> parse(String jwksJson, Provider provider) {
        return Jwks.parse(jwksJson, provider);
    }

    /**
     * Reads one JWK into a public key.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#UNSUPPORTED}
     */
    public static PublicKey parseJwk(String jwkJson, Provider provider) {
        return Jwks.parseJwk(jwkJson, provider);
    }

    /**
     * The {@code kid} of one JWK ({@code ""} when absent).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    public static String kidOf(String jwkJson) {
        return Jwks.kidOf(jwkJson);
    }
}
