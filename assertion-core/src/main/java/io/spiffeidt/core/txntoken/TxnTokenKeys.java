package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Jwks;
import java.security.Provider;
import java.security.PublicKey;
import java.util.Map;

/**
 * The Txn-Token Service's key as a JSON Web Key Set (docs/formats/txn-token.md "Service key":
 * published at {@code GET /txn-token/keys}) and back: RFC 7517 JWKs, public parameters only, {@code
 * kid} = the RFC 7638 thumbprint.
 *
 * <p>Reading fails closed: malformed JSON, a private member, a duplicate {@code kid} is {@link
 * ErrorCode#MALFORMED}; an unknown {@code kty} or {@code crv} is {@link ErrorCode#UNSUPPORTED}.
 *
 * <p>Thread safety: stateless.
 */
public final class TxnTokenKeys {

    private TxnTokenKeys() {}

    /** The RFC 7638 JWK thumbprint of a P-256 (or RSA) public key. */
    public static String thumbprint(PublicKey key) {
        return Jwks.thumbprint(key);
    }

    /** The JWKS {@code {"keys":[...]}} of the given {@code kid → key} entries. */
    public static String jwks(Map<String, ? extends PublicKey> keysById) {
        return Jwks.jwks(keysById);
    }

    /** The JWKS of the given keys, each under its thumbprint. */
    public static String jwks(PublicKey... keys) {
        return Jwks.jwks(keys);
    }

    /**
     * Reads a JWKS into {@code kid → key}, keys built with {@code provider}.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}, {@link ErrorCode#UNSUPPORTED} or
     *     {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static Map<String, PublicKey> parse(String jwksJson, Provider provider) {
        return Jwks.parse(jwksJson, provider);
    }
}
