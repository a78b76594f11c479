package io.spiffeidt.core;

import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * The authenticated mTLS peer that presented a document: its SPIFFE ID and its leaf public key, as
 * the TLS layer authenticated them (docs/formats/id-mode.md and docs/formats/lsvid.md,
 * "Verification", the presenter step). One type for every mode.
 *
 * <p>Thread safety: immutable.
 *
 * @param id the peer's SPIFFE ID (the URI SAN of its leaf certificate)
 * @param key the public key of the peer's leaf certificate
 */
public record Presenter(SpiffeId id, PublicKey key) {

    /** Requires both values. */
    public Presenter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
    }

    /**
     * The presenter of an authenticated peer leaf certificate.
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} when the certificate does not carry
     *     exactly one SPIFFE ID
     */
    public static Presenter of(X509Certificate peerLeaf) {
        return new Presenter(SpiffeId.fromX509Svid(peerLeaf), peerLeaf.getPublicKey());
    }

    /**
     * Whether {@code other} is this presenter's key: the same algorithm and the same encoded
     * SubjectPublicKeyInfo bytes (whatever provider built either key; a key without an encoding
     * never matches).
     */
    public boolean hasKey(PublicKey other) {
        return PublicKeys.same(key, other);
    }

    @Override
    public String toString() {
        return "Presenter[" + id + "]";
    }
}
