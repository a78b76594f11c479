package io.spiffeidt.core.idmode;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.X509Svids;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Objects;

/**
 * The authenticated mTLS peer that presented a token: its SPIFFE ID and its leaf public key
 * (spec/id-mode.md "Verification", step 5). Built from the peer certificate the TLS layer
 * already validated.
 *
 * @param id the peer's SPIFFE ID (the URI SAN of its leaf)
 * @param key the peer leaf's public key
 *     <p>Thread safety: immutable.
 */
public record Presenter(SpiffeId id, PublicKey key) {

    /** Requires both values. */
    public Presenter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(key, "key");
    }

    /**
     * The presenter of an mTLS peer leaf certificate (already validated by the TLS layer).
     *
     * @throws io.spiffeidt.core.AssertionException {@link io.spiffeidt.core.ErrorCode#UNTRUSTED_KEY}
     *     if the leaf does not carry exactly one SPIFFE ID URI SAN
     */
    public static Presenter of(X509Certificate peerLeaf) {
        return new Presenter(X509Svids.spiffeId(peerLeaf), peerLeaf.getPublicKey());
    }

    /** Whether {@code other} is the same key (compared by its SubjectPublicKeyInfo encoding). */
    boolean hasKey(PublicKey other) {
        byte[] mine = key.getEncoded();
        return mine != null && Arrays.equals(mine, other.getEncoded());
    }

    @Override
    public String toString() {
        return "Presenter[" + id + "]";
    }
}
