package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.X509Svids;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * The mTLS peer that presented an LSVID: its SPIFFE ID and the public key of its leaf
 * certificate, as the TLS layer authenticated them (spec/lsvid.md "Verification", step 5).
 *
 * @param id the peer's SPIFFE ID (the URI SAN of its leaf certificate)
 * @param key the public key of the peer's leaf certificate
 *     <p>Thread safety: immutable.
 */
public record Presenter(SpiffeId id, PublicKey key) {

    /** Requires both values. */
    public Presenter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
    }

    /**
     * The presenter described by an authenticated peer leaf certificate.
     *
     * @throws io.spiffeidt.core.AssertionException {@link io.spiffeidt.core.ErrorCode#UNTRUSTED_KEY}
     *     when the certificate does not carry exactly one SPIFFE ID
     */
    public static Presenter of(X509Certificate peerLeaf) {
        return new Presenter(X509Svids.spiffeId(peerLeaf), peerLeaf.getPublicKey());
    }

    @Override
    public String toString() {
        return "Presenter[" + id + "]";
    }
}
