package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Jwks;
import java.security.Provider;
import java.security.PublicKey;
import java.util.Map;

/**
 * The WIT issuer's keys as a JSON Web Key Set and back (docs/formats/wimse.md "Who issues WITs": the
 * asserting workload publishes them over SPIFFE mTLS, every tier's {@link WitKeyResolver} reads
 * them): RFC 7517 JWKs, public parameters only, {@code kid} = the RFC 7638 thumbprint that {@link
 * WitIssuer} writes.
 *
 * <p>Reading fails closed: malformed JSON, a private member, a duplicate {@code kid} is {@link
 * ErrorCode#MALFORMED}; an unknown {@code kty} or {@code crv} is {@link ErrorCode#UNSUPPORTED}.
 *
 * <p>Thread safety: stateless.
 */
public final class WitKeys {

    private WitKeys() {}

    /** The JWKS {@code {"keys":[...]}} of the given keys, each under its thumbprint. */
    public static String jwks(PublicKey... keys) {
        return Jwks.jwks(keys);
    }

    /**
     * Reads a JWKS into {@code kid → key}, keys built with {@code provider}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNSUPPORTED} or {@link
     *     ErrorCode#LIMIT_EXCEEDED}
     */
    public static Map<String, PublicKey> parse(String jwksJson, Provider provider) {
        return Jwks.parse(jwksJson, provider);
    }

    /** The RFC 7638 JWK thumbprint of a public key: the {@code kid} of a WIT it signs. */
    public static String thumbprint(PublicKey key) {
        return Jwks.thumbprint(key);
    }
}
