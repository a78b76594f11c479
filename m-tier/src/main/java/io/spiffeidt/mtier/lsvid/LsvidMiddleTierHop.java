package io.spiffeidt.mtier.lsvid;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidBaseBuilder;
import io.spiffeidt.core.lsvid.LsvidExtender;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.WorkloadIdentity;
import java.security.Provider;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The middle tier's part of LSVID (spec/lsvid.md "Flows", use): the strict verifier against the
 * current trust bundle, and its own base document, kept current with its X.509-SVID, to extend
 * with.
 *
 * <p>Thread safety: thread safe; the SVID and bundle are read on every call (they rotate).
 */
public class LsvidMiddleTierHop {

    private final WorkloadIdentity identity;
    private final VerificationProfile profile;
    private final Limits limits;
    private final TimeRules timeRules;
    private final Provider provider;
    private final LsvidBaseBuilder bases;
    private final LsvidExtender extender;
    private final AtomicReference<LsvidVerifier> verifier = new AtomicReference<>();

    public LsvidMiddleTierHop(
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
        this.bases = new LsvidBaseBuilder(timeRules, this.provider);
        this.extender = new LsvidExtender(timeRules, this.provider);
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

    /** Extends {@code document} with a layer addressed to {@code audience}, signed with the current SVID key. */
    public Lsvid extend(Lsvid document, SpiffeId audience) {
        // one SVID snapshot: the base and the key that signs must belong together
        X509Svid svid = identity.svid();
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(document, base, svid.getPrivateKey(), audience);
    }
}
