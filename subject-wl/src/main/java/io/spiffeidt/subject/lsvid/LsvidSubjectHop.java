package io.spiffeidt.subject.lsvid;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.IdClaim;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidBaseBuilder;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidExtender;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.core.lsvid.Presenter;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.WorkloadIdentity;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The subject workload's part of LSVID (spec/lsvid.md "Flows"): its own base document kept current
 * with its X.509-SVID, extensions signed with the current SVID key, and the strict verification of
 * what the asserting workload answers.
 *
 * <p>Thread safety: thread safe; the SVID and bundle are read on every call (they rotate).
 */
public class LsvidSubjectHop {

    private final WorkloadIdentity identity;
    private final VerificationProfile profile;
    private final Limits limits;
    private final TimeRules timeRules;
    private final Provider provider;
    private final LsvidBaseBuilder bases;
    private final LsvidExtender extender;
    private final AtomicReference<LsvidVerifier> verifier = new AtomicReference<>();

    public LsvidSubjectHop(
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

    /** The SPIFFE ID of {@code role}. */
    public SpiffeId idOf(Role role) {
        return identity.idOf(role);
    }

    /** The own base document (rebuilt when the SVID rotates), extended with {@code aud} = {@code audience}. */
    public Lsvid start(SpiffeId audience) {
        X509Svid svid = identity.svid();
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(Lsvid.of(base), base, svid.getPrivateKey(), audience);
    }

    /** Extends {@code document} with a layer addressed to {@code audience}, signed with the current SVID key. */
    public Lsvid extend(Lsvid document, SpiffeId audience) {
        // one SVID snapshot: the base and the key that signs must belong together
        X509Svid svid = identity.svid();
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(document, base, svid.getPrivateKey(), audience);
    }

    /** Decodes a kept document (strict, canonical, under the limits). */
    public Lsvid decode(String encoded) {
        return LsvidCodec.decode(encoded, limits);
    }

    /**
     * Verifies the asserting workload's answer: the strict checks with this workload as audience and
     * the delegation required. The answer came over an mTLS connection that authenticated exactly
     * the configured asserting workload ID, but the HTTP client does not expose the server's leaf;
     * so the presenter is the configured asserting ID (the name check is real: the outermost issuer
     * must be it) with the key of the outermost layer's own, anchored {@code iss.id} (the key check
     * then only confirms that this key signed the layer, which step 3 checks anyway).
     */
    public LsvidVerification verifyFromAsserting(String encoded) {
        Lsvid decoded = decode(encoded);
        LsvidToken outer = decoded.token();
        IdClaim iss = outer.payload().iss();
        if (outer.isBase()
                || iss == null
                || iss.id() == null
                || iss.id().payload().sub() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered no extension layer");
        }
        Presenter asserting = new Presenter(
                identity.idOf(Role.ASSERTING_WL),
                publicKey(iss.id().payload().sub().pk()));
        return verifier().verify(encoded, identity.self(), asserting, DelegationRule.REQUIRED);
    }

    private LsvidVerifier verifier() {
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

    private static PublicKey publicKey(byte[] spki) {
        if (spki == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "iss.id without sub.pk");
        }
        try {
            return KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "iss.id key is not a readable EC key");
        }
    }
}
