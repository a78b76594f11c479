package io.spiffeidt.devstack.ca;

import io.spiffeidt.core.SpiffeId;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An X.509-SVID issued by {@link DevCa}: the certificate chain (leaf first, without the root,
 * exactly as the Workload API hands it out), its private key and its SPIFFE ID.
 *
 * <p>Thread safety: immutable.
 *
 * @param chain the certificate chain, leaf first; the root is in the bundle, not here
 * @param key the leaf's private key (a JDK key object, PKCS#8-encodable)
 * @param id the SPIFFE ID in the leaf's single URI SAN
 */
public record IssuedSvid(List<X509Certificate> chain, PrivateKey key, SpiffeId id) {

    /** Copies the chain. */
    public IssuedSvid {
        chain = List.copyOf(chain);
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(id, "id");
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("an SVID needs at least its leaf certificate");
        }
    }

    /** The leaf certificate. */
    public X509Certificate leaf() {
        return chain.get(0);
    }

    /** When the leaf expires. */
    public Instant expiresAt() {
        return leaf().getNotAfter().toInstant();
    }

    /** Names the SPIFFE ID and the leaf serial; never the key or the certificate bytes. */
    @Override
    public String toString() {
        return "IssuedSvid[id=" + id + ", serial=" + leaf().getSerialNumber().toString(16) + "]";
    }
}
