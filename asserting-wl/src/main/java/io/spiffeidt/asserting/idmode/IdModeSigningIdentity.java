package io.spiffeidt.asserting.idmode;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.support.WorkloadIdentity;
import java.util.concurrent.atomic.AtomicReference;

/**
 * This workload's ID-Mode signing credentials: the key and chain of the current X.509-SVID, read
 * once per call from the Workload API source (SVIDs rotate) and converted only when the SVID
 * changed.
 */
public class IdModeSigningIdentity {

    private record Current(X509Svid svid, IdModeCredentials credentials) {}

    private final WorkloadIdentity identity;
    private final AtomicReference<Current> current = new AtomicReference<>();

    public IdModeSigningIdentity(WorkloadIdentity identity) {
        this.identity = identity;
    }

    /** The credentials of the current SVID (key and chain always from the same SVID). */
    public IdModeCredentials credentials() {
        X509Svid svid = identity.svid();
        Current c = current.get();
        if (c == null || c.svid() != svid) {
            c = new Current(svid, IdModeCredentials.of(svid.getPrivateKey(), svid.getChain()));
            current.set(c);
        }
        return c.credentials();
    }
}
