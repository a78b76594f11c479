package io.spiffeidt.support.testing;

import io.spiffe.bundle.x509bundle.X509Bundle;
import io.spiffe.exception.BundleNotFoundException;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.X509Source;
import java.util.concurrent.atomic.AtomicBoolean;

/** An in-memory X.509 source for tests: one SVID (replaceable, to simulate rotation) and one bundle. */
public final class StaticX509Source implements X509Source {

    private volatile X509Svid svid;
    private final X509Bundle bundle;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Serves {@code svid} and {@code bundle}. */
    public StaticX509Source(X509Svid svid, X509Bundle bundle) {
        this.svid = svid;
        this.bundle = bundle;
    }

    @Override
    public X509Svid getX509Svid() {
        return svid;
    }

    @Override
    public X509Bundle getBundleForTrustDomain(TrustDomain trustDomain) throws BundleNotFoundException {
        if (!bundle.getTrustDomain().equals(trustDomain)) {
            throw new BundleNotFoundException("no bundle for " + trustDomain);
        }
        return bundle;
    }

    /** Replaces the SVID (rotation). */
    public void rotate(X509Svid next) {
        this.svid = next;
    }

    @Override
    public void close() {
        closed.set(true);
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed.get();
    }
}
