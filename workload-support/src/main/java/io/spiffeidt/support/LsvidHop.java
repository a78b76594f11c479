package io.spiffeidt.support;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
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
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Provider;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One workload's part of LSVID (spec/lsvid.md "Flows"): its own base document kept current with its
 * X.509-SVID, extensions (and, at the asserting workload, the delegation layer) signed with the
 * current SVID key, and the strict verifier for the current trust bundle, pinned to the asserting
 * workload.
 *
 * <p>Thread safety: thread safe; the SVID and bundle are read on every call (they rotate), and a
 * base and the key that signs over it always come from one SVID snapshot.
 */
public class LsvidHop {

    private final WorkloadIdentity identity;
    private final VerificationProfile profile;
    private final Limits limits;
    private final TimeRules timeRules;
    private final Provider provider;
    private final LsvidV1IssuerKeys v1IssuerKeys;
    private final LsvidBaseBuilder bases;
    private final LsvidExtender extender;
    private final AtomicReference<LsvidVerifier> verifier = new AtomicReference<>();

    /**
     * @param v1IssuerKeys the trusted original SPIRE LSVID keys, used only under the
     *     original-compatible profile
     */
    public LsvidHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            LsvidV1IssuerKeys v1IssuerKeys) {
        this.identity = identity;
        this.profile = profile;
        this.limits = limits;
        this.timeRules = timeRules;
        this.provider = provider.provider();
        this.v1IssuerKeys = v1IssuerKeys;
        this.bases = new LsvidBaseBuilder(timeRules, this.provider);
        this.extender = new LsvidExtender(timeRules, this.provider);
    }

    /** This workload's SPIFFE ID: the audience incoming documents must name. */
    public SpiffeId self() {
        return identity.self();
    }

    /** The configured SPIFFE ID of a role. */
    public SpiffeId idOf(Role role) {
        return identity.idOf(role);
    }

    /** The limits documents are decoded under. */
    public Limits limits() {
        return limits;
    }

    /** Decodes a document (strict, canonical, under the limits). */
    public Lsvid decode(String encoded) {
        return LsvidCodec.decode(encoded, limits);
    }

    /** The verifier for the current trust bundle (rebuilt when the bundle changes). */
    public LsvidVerifier verifier() {
        TrustBundle bundle = identity.bundle();
        LsvidVerifier current = verifier.get();
        if (current != null && current.settings().trustBundle().equals(bundle)) {
            return current;
        }
        LsvidVerifier fresh = new LsvidVerifier(new LsvidSettings(
                identity.idOf(Role.ASSERTING_WL), bundle, profile, limits, timeRules, v1IssuerKeys.keys(), provider));
        verifier.set(fresh);
        return fresh;
    }

    /** This workload's current base, extended with a first layer addressed to {@code audience}. */
    public Lsvid start(SpiffeId audience) {
        X509Svid svid = identity.svid();
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(Lsvid.of(base), base, svid.getPrivateKey(), audience);
    }

    /** Extends {@code document} with a layer addressed to {@code audience}. */
    public Lsvid extend(Lsvid document, SpiffeId audience) {
        X509Svid svid = identity.svid();
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(document, base, svid.getPrivateKey(), audience);
    }

    /**
     * Adds the delegation layer ({@code dpa}, {@code dpr}) addressed to {@code subject} (the
     * asserting workload's step); the layer never outlives the OAuth token it came from.
     *
     * @throws AssertionException {@link ErrorCode#EXPIRED} when the OAuth token has no time left
     */
    public Lsvid delegate(Lsvid document, SpiffeId subject, String dpa, String dpr, Instant oauthExpiresAt) {
        Duration left = Duration.between(timeRules.now(), oauthExpiresAt);
        if (left.getSeconds() <= 0) {
            throw new AssertionException(ErrorCode.EXPIRED, "the OAuth token has no lifetime left");
        }
        Duration lifetime = left.compareTo(timeRules.lifetime()) < 0 ? left : timeRules.lifetime();
        TimeRules rules = new TimeRules(timeRules.clock(), timeRules.skew(), lifetime, timeRules.originalMaxAge());
        X509Svid svid = identity.svid();
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return new LsvidExtender(rules, provider)
                .extendWithDelegation(document, base, svid.getPrivateKey(), subject, dpa, dpr);
    }

    /**
     * Verifies a document a downstream workload answered (the subject workload's check of what the
     * asserting workload returns): the strict checks with this workload as audience and the
     * delegation required. The answer came over an mTLS connection that authenticated exactly the
     * configured SPIFFE ID of {@code from}, but the HTTP client does not expose the server's leaf; so
     * the presenter is that configured ID (the name check is real: the outermost issuer must be it)
     * with the key of the outermost layer's own, anchored {@code iss.id} (the key check then only
     * confirms that this key signed the layer, which step 3 checks anyway).
     *
     * @throws AssertionException as the verifier, and {@link ErrorCode#MALFORMED} when the answer has
     *     no extension layer
     */
    public LsvidVerification verifyAnswer(String encoded, Role from) {
        Lsvid decoded = decode(encoded);
        LsvidToken outer = decoded.token();
        IdClaim iss = outer.payload().iss();
        if (outer.isBase()
                || iss == null
                || iss.id() == null
                || iss.id().payload().sub() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the answer has no extension layer");
        }
        Presenter answering = new Presenter(
                identity.idOf(from), publicKey(iss.id().payload().sub().pk()));
        return verifier().verify(encoded, identity.self(), answering, DelegationRule.REQUIRED);
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
