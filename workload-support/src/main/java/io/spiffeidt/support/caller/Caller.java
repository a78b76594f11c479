package io.spiffeidt.support.caller;

import io.spiffeidt.core.SpiffeId;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * The authenticated mTLS peer of the current request; a controller method receives it as a
 * parameter of this type.
 *
 * <p>Thread safety: immutable.
 *
 * @param id the SPIFFE ID of the peer's X.509-SVID leaf
 * @param leaf the peer's leaf certificate
 * @param publicKey the leaf's public key
 */
public record Caller(SpiffeId id, X509Certificate leaf, PublicKey publicKey) {
    /** Requires all values. */
    public Caller {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(leaf, "leaf");
        Objects.requireNonNull(publicKey, "publicKey");
    }

    /** Names the SPIFFE ID only. */
    @Override
    public String toString() {
        return "Caller[" + id + "]";
    }
}
