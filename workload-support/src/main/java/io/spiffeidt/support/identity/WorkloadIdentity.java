package io.spiffeidt.support.identity;

import io.spiffe.bundle.x509bundle.X509Bundle;
import io.spiffe.exception.BundleNotFoundException;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * This workload's identity: its configured SPIFFE ID, the IDs of the other roles, and the current
 * X.509-SVID and trust bundle read from the X.509 source on every call, so SVID rotation is seen.
 * Within a request the SVID is the one {@link SvidPin} pinned for it: the key a request signs with is
 * the key its outbound calls present.
 *
 * <p>Thread safety: thread safe (the source is).
 */
public class WorkloadIdentity {

    private final X509Source source;
    private final IdentityProperties properties;

    /** Reads SVIDs and bundles from {@code source}; IDs from {@code properties}. */
    public WorkloadIdentity(X509Source source, IdentityProperties properties) {
        this.source = Objects.requireNonNull(source, "source");
        this.properties = Objects.requireNonNull(properties, "properties");
    }

    /** This workload's configured SPIFFE ID ({@code spiffeidt.ids.<workload>}). */
    public SpiffeId self() {
        return properties.self();
    }

    /** The configured SPIFFE ID of a role. */
    public SpiffeId idOf(Role role) {
        return properties.idOf(role);
    }

    /** The current X.509-SVID (within a request, the one pinned for it). */
    public X509Svid svid() {
        return SvidPin.svid(source);
    }

    /**
     * The current X.509-SVID, for a mode that signs with its key.
     *
     * @throws SvidKeyUnsupportedException when the key is not EC P-256
     */
    public X509Svid signingSvid(Mode mode) {
        X509Svid current = svid();
        if (!SvidKeys.isP256(current.getPrivateKey())) {
            throw new SvidKeyUnsupportedException(mode, SvidKeys.describe(current.getPrivateKey()));
        }
        return current;
    }

    /** The private key of the current SVID (this workload signs with it). */
    public PrivateKey signingKey() {
        return svid().getPrivateKey();
    }

    /** The certificate chain of the current SVID, leaf first. */
    public List<X509Certificate> chain() {
        return List.copyOf(svid().getChain());
    }

    /** The SPIFFE ID in the current SVID's leaf certificate. */
    public SpiffeId svidId() {
        return SpiffeId.parse(svid().getSpiffeId().toString());
    }

    /**
     * The current X.509 roots of the configured trust domain.
     *
     * @throws IllegalStateException when the source has no bundle for the trust domain
     */
    public TrustBundle bundle() {
        TrustDomain td = TrustDomain.parse(properties.trustDomain());
        try {
            X509Bundle bundle = source.getBundleForTrustDomain(td);
            return new TrustBundle(td.getName(), new ArrayList<>(bundle.getX509Authorities()));
        } catch (BundleNotFoundException e) {
            throw new IllegalStateException("no X.509 bundle for trust domain " + td.getName(), e);
        }
    }

    /**
     * The current X.509 roots of any trust domain the source knows (read on every call: bundles
     * rotate), or empty.
     */
    public java.util.Optional<TrustBundle> bundleFor(String trustDomain) {
        try {
            X509Bundle bundle = source.getBundleForTrustDomain(TrustDomain.parse(trustDomain));
            if (bundle.getX509Authorities().isEmpty()) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new TrustBundle(trustDomain, new ArrayList<>(bundle.getX509Authorities())));
        } catch (BundleNotFoundException | IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
    }

    /** The X.509 source this identity reads from. */
    public X509Source source() {
        return source;
    }
}
