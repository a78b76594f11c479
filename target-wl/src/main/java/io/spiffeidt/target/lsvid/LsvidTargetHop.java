package io.spiffeidt.target.lsvid;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.WorkloadIdentity;
import java.security.Provider;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The target's part of LSVID (spec/lsvid.md "Flows", use): the strict verifier against the current
 * trust bundle, pinned to the configured asserting workload. The target only verifies.
 *
 * <p>Thread safety: thread safe; the bundle is read on every call (it rotates).
 */
public class LsvidTargetHop {

    private final WorkloadIdentity identity;
    private final VerificationProfile profile;
    private final Limits limits;
    private final TimeRules timeRules;
    private final Provider provider;
    private final AtomicReference<LsvidVerifier> verifier = new AtomicReference<>();

    public LsvidTargetHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules) {
        this.identity = identity;
        this.profile = profile;
        this.limits = limits;
        this.timeRules = timeRules;
        this.provider = provider.provider();
    }

    /** This workload's SPIFFE ID: the audience incoming documents must name. */
    public SpiffeId self() {
        return identity.self();
    }

    /** The verifier for the current trust bundle (rebuilt when the bundle changes). */
    public LsvidVerifier verifier() {
        TrustBundle bundle = identity.bundle();
        LsvidVerifier current = verifier.get();
        if (current != null && current.settings().trustBundle().equals(bundle)) {
            return current;
        }
        LsvidVerifier fresh = new LsvidVerifier(new LsvidSettings(
                identity.idOf(Role.ASSERTING_WL), bundle, profile, limits, timeRules, List.of(), provider));
        verifier.set(fresh);
        return fresh;
    }
}
