package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;

/**
 * The JWS algorithms a DVID may be signed with (docs/formats/dvid.md "Document"): {@code RS256} for an
 * RSA key (the default) and {@code ES256} for an EC P-256 key. Nothing else is ever accepted: never
 * {@code none}, never HMAC.
 *
 * <p>Thread safety: immutable.
 */
public enum DvidAlgorithm {
    /** RSASSA-PKCS1-v1_5 with SHA-256 (JCA {@code SHA256withRSA}). */
    RS256("SHA256withRSA", "RSA"),
    /** ECDSA on P-256 with SHA-256, signature as the 64-byte {@code R || S} of RFC 7518 §3.4. */
    ES256("SHA256withECDSA", "EC");

    private final String jcaName;
    private final String keyType;

    DvidAlgorithm(String jcaName, String keyType) {
        this.jcaName = jcaName;
        this.keyType = keyType;
    }

    /** The JCA signature algorithm name. */
    public String jcaName() {
        return jcaName;
    }

    /** The JWK {@code kty} of the keys this algorithm uses ({@code RSA} or {@code EC}). */
    public String keyType() {
        return keyType;
    }

    /**
     * The algorithm named by a JWS {@code alg} header value.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} for any other name
     */
    public static DvidAlgorithm fromJwsName(String name) {
        for (DvidAlgorithm a : values()) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        throw new AssertionException(ErrorCode.UNSUPPORTED, "unsupported JWS algorithm");
    }
}
