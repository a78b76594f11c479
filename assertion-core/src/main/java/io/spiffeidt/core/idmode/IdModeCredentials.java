package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.X509Svids;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A workload's own X.509-SVID: the private key it signs its layer with and the certificate chain
 * (leaf first, then intermediates) it proves it with (docs/formats/common.md "Roles and identities"). The
 * SPIFFE ID is the leaf's URI SAN.
 *
 * <p>{@link #toString()} never shows the key or the certificates.
 *
 * <p>Thread safety: immutable.
 */
public final class IdModeCredentials {

    private final PrivateKey privateKey;
    private final List<X509Certificate> chain;
    private final SpiffeId spiffeId;

    private IdModeCredentials(PrivateKey privateKey, List<X509Certificate> chain, SpiffeId spiffeId) {
        this.privateKey = privateKey;
        this.chain = chain;
        this.spiffeId = spiffeId;
    }

    /**
     * Credentials from an SVID key and chain. The leaf must carry one SPIFFE ID and an EC P-256
     * key; the private key must be EC P-256 (that it matches the leaf is the caller's duty: the
     * Workload API hands them out together).
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} for a non-P-256 key, {@link
     *     ErrorCode#UNTRUSTED_KEY} for a leaf without a single SPIFFE ID
     * @throws IllegalArgumentException for an empty or over-long chain
     */
    public static IdModeCredentials of(PrivateKey privateKey, List<X509Certificate> chain) {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(chain, "chain");
        if (chain.isEmpty() || chain.size() > IdModeArtifacts.MAX_CHAIN_LENGTH) {
            throw new IllegalArgumentException(
                    "an SVID chain holds 1 to " + IdModeArtifacts.MAX_CHAIN_LENGTH + " certificates");
        }
        List<X509Certificate> copy = List.copyOf(chain);
        Es256.requireP256(privateKey, -1);
        Es256.requireP256(copy.get(0).getPublicKey(), -1);
        return new IdModeCredentials(privateKey, copy, X509Svids.spiffeId(copy.get(0)));
    }

    /** The signing key. */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /** The certificate chain, leaf first. */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** The leaf certificate. */
    public X509Certificate leaf() {
        return chain.get(0);
    }

    /** The workload's SPIFFE ID (the leaf's URI SAN). */
    public SpiffeId spiffeId() {
        return spiffeId;
    }

    /** The earliest {@code notAfter} in the chain: no layer we sign outlives it. */
    public Instant notAfter() {
        Instant min = null;
        for (X509Certificate c : chain) {
            Instant na = c.getNotAfter().toInstant();
            if (min == null || na.isBefore(min)) {
                min = na;
            }
        }
        return min;
    }

    @Override
    public String toString() {
        return "IdModeCredentials[" + spiffeId + "]";
    }
}
