package io.spiffeidt.support.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.anonmode.AnonModeExtender;
import io.spiffeidt.core.anonmode.AnonModeMinter;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.core.anonmode.VerifiedAnonMode;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Introspection;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Minting;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.reuse.ReusedExtensions;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import java.security.Provider;
import java.time.Duration;
import java.util.Optional;

/**
 * One workload's part of Anon-Mode (docs/formats/anon-mode.md "Flows"): the verifier (roots
 * addressed to the subject workload, this workload as audience), the extender (anonymous layers,
 * or with {@code iid} when {@code spiffeidt.anon-mode.include-iid} is on), and, at the asserting
 * workload, roots with a fresh key. The {@link io.spiffeidt.support.hop.Hop} verbs: {@link
 * #verify(Received, Caller)} at the middle tier, {@link #introspection()} at the target, {@link
 * #forward(Verified, Role)}, {@link #minting()} at the asserting workload, {@link #accept} and {@link
 * #forward(String, Role)} at the subject workload.
 *
 * <p>Thread safety: thread safe.
 */
public class AnonModeHop extends AbstractHop<VerifiedAnonMode, Void> {

    private final ProofCheck proofCheck;

    private final AnonModeSettings settings;
    private final AnonModeVerifier verifier;
    private final AnonModeExtender extender;
    private final ReusedExtensions<String, String> extensions;
    private final Optional<Introspection<VerifiedAnonMode>> introspection = Optional.of(new Introspected());
    private final Answers answers = new Answers();
    private final KeptExtension keptExtension = new KeptExtension();
    private final Optional<Minting<MintedAnonMode>> minting;

    /** The memo of the extensions this hop signed. */
    public static final String EXTENSION_MEMO = "anonmode-extension";

    /**
     * A hop, with the memos of {@code parts}: {@value #EXTENSION_MEMO} (whether {@link #forward}
     * reuses a young extension of the same token instead of signing a new one) and the verifier's
     * (see {@link AnonModeVerifier}).
     *
     * @param includeIid whether the layers this workload adds carry its SPIFFE ID
     * @throws IllegalStateException when {@code includeIid} is on under the strict profile
     */
    public AnonModeHop(HopParts parts, boolean includeIid) {
        this(parts, includeIid, null);
    }

    /**
     * The asserting workload's hop: {@link #AnonModeHop(HopParts, boolean)} that also mints roots
     * ({@link #minting()}) living at most {@code rootLifetime}.
     *
     * @param rootLifetime the lifetime of a root, or {@code null} for a hop that mints nothing
     */
    public AnonModeHop(HopParts parts, boolean includeIid, Duration rootLifetime) {
        super(Mode.ANON_MODE, parts, Forwarding.EXTENDS);
        try {
            this.settings = AnonModeSettings.forHop(
                    parts.identity().idOf(Role.SUBJECT_WL),
                    parts.profile(),
                    parts.limits(),
                    parts.timeRules(),
                    includeIid);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("spiffeidt.anon-mode.include-iid needs "
                    + "spiffeidt.verification.profile=original-compatible (strict verifiers reject iid)");
        }
        this.extensions = new ReusedExtensions<>(parts.memos(), EXTENSION_MEMO);
        this.verifier = new AnonModeVerifier(settings, parts.memos());
        this.extender = new AnonModeExtender(settings, NonceSource.secureRandom());
        // the IdP key of an introspection proof is RSA: with the SunEC choice, the JDK provider
        // that has RSA checks it
        Provider rsaProvider = parts.provider().signature("SHA256withRSA").getProvider();
        this.proofCheck = new ProofCheck(
                Mode.ANON_MODE,
                settings.profile(),
                settings.limits(),
                rsaProvider,
                parts.verifiedProofs(),
                parts.services().metrics());
        this.minting = rootLifetime == null ? Optional.empty() : Optional.of(new RootMinting(rootLifetime));
    }

    /** The settings (root audience: the subject workload). */
    public AnonModeSettings settings() {
        return settings;
    }

    /**
     * The verifier (roots addressed to the subject workload).
     */
    public AnonModeVerifier verifier() {
        return verifier;
    }

    /** Every check of the concatenated verification, with this workload as audience. */
    VerifiedResult verify(String token) {
        return verifier.verify(token, identity.self());
    }

    /** Extends a token by one layer (anonymous unless {@code iid} is on). */
    String extend(String token) {
        return extender.extend(token, identity.self());
    }

    /**
     * Extends a verified token by one layer: what a hop forwards. When extensions are reused, the
     * same token (the exact text) forwarded again gets the same extension while less than half of
     * its lifetime has passed (see {@link ReusedExtensions}; an Anon-Mode layer is signed with the
     * key the token carries, not with the SVID); otherwise a new layer is signed.
     */
    String forward(String token) {
        String kept = extensions.find(token, null);
        if (kept != null) {
            return kept;
        }
        return remembered(token, extender.extendLayer(token, identity.self()));
    }

    /** {@link #forward(String)} of a token this workload verified, extended over the verifier's parse. */
    private String forward(VerifiedAnonMode verified) {
        String kept = extensions.find(verified.token(), null);
        if (kept != null) {
            return kept;
        }
        return remembered(verified.token(), extender.extendLayer(verified, identity.self()));
    }

    private String remembered(String token, AnonModeExtender.Extension extended) {
        extensions.remember(token, null, extended.token(), extended.issuedAt(), extended.expiresAt());
        return extended.token();
    }

    /** Whether {@link #forward} reuses young extensions (the memo {@value #EXTENSION_MEMO}). */
    public boolean reusesExtensions() {
        return extensions.remembers();
    }

    /** How many times {@link #forward} reused an extension since start. */
    public long reusedExtensions() {
        return extensions.hits();
    }

    /**
     * Every check of the concatenated verification of a token {@code caller} sent, with this
     * workload as audience (no presenter: the layers are anonymous).
     */
    @Override
    protected Verified<VerifiedAnonMode> check(Received received, Caller caller, Void none) {
        return verified(received);
    }

    /**
     * {@link #verify(Received, Caller)}, then the root binding (docs/formats/anon-mode.md
     * "Verification", step 5): only the root {@code P(0).R(0)} goes to the asserting workload, never
     * the hops or the bearer key; it must know it, and its proof must show an IdP-signed OAuth token
     * of the root's {@code dpa}/{@code dpr} ({@link ProofCheck}). A root it does not know is {@link
     * ErrorCode#UNTRUSTED_KEY}: the root key is random, the record is its only link to the issuer.
     */
    @Override
    public Optional<Introspection<VerifiedAnonMode>> introspection() {
        return introspection;
    }

    /**
     * Extends the verified token by one layer ({@link #forward(String)}: a young extension may be
     * reused; the layer names no audience, so {@code next} only says where it goes).
     */
    @Override
    protected Outgoing onward(Verified<VerifiedAnonMode> verified, Role next) {
        return new Outgoing(forward(verified.document()), null, verified.depth() + 1);
    }

    /**
     * {@link #forward(Verified, Role)} for a root this workload verified when it received it and
     * kept (the subject workload's step), timed as {@code extend}, its size recorded.
     */
    public Outgoing forward(String root, Role next) {
        return keptExtension.run(root);
    }

    /**
     * The subject workload's check of the root the asserting workload answered (signature, times,
     * this workload as audience, the delegation), timed as {@code validate}.
     */
    public Verified<VerifiedAnonMode> accept(Received answer) {
        return answers.run(answer, null);
    }

    /**
     * The asserting workload's step, where this hop was given the roots' lifetime: a root of the
     * grant with a fresh key, addressed to its audience, never past its {@code notAfter}; the root
     * identifier {@code P(0).R(0)} is what its introspection record is found by.
     */
    @Override
    public Optional<Minting<MintedAnonMode>> minting() {
        return minting;
    }

    private Verified<VerifiedAnonMode> verified(Received received) {
        String token = received.token();
        VerifiedAnonMode verified = verifier.verifyOnce(token, identity.self());
        // an Anon-Mode token has no artifacts: what is forwarded unchanged is the token alone
        return new Verified<>(verified, verified.result(), Received.of(token));
    }

    private final class Introspected implements Introspection<VerifiedAnonMode> {

        @Override
        public Verified<VerifiedAnonMode> verify(Received received, Caller caller) {
            // verified and its root read from one parse
            Verified<VerifiedAnonMode> verified = AnonModeHop.this.verify(received, caller);
            String root = verified.document().rootIdentifier();
            try {
                proofCheck.introspect(
                        root, verified.delegation(), services().requireIdpKeys(), offered -> client(Role.ASSERTING_WL)
                                .post(
                                        "/anon-mode/introspect",
                                        new AnonModeIntrospectRequest(root, offered),
                                        IntrospectionAnswer.class));
            } catch (AssertionException e) {
                if (e.code() == ErrorCode.NOT_FOUND) {
                    throw new AssertionException(
                            ErrorCode.UNTRUSTED_KEY,
                            0,
                            "the root is unknown to " + idOf(Role.ASSERTING_WL) + " (introspection)");
                }
                throw e;
            }
            return verified;
        }
    }

    /** The subject workload's check of the asserting workload's root. */
    private final class Answers extends Check<Verified<VerifiedAnonMode>> {

        @Override
        protected Verified<VerifiedAnonMode> apply(Received answer, Caller none) {
            return verified(answer);
        }

        @Override
        protected int depthOf(Verified<VerifiedAnonMode> checked) {
            return checked.depth();
        }
    }

    /** The subject workload's extension of its kept root. */
    private final class KeptExtension extends OutgoingProduction<String> {

        KeptExtension() {
            super(Operation.EXTEND);
        }

        @Override
        protected Outgoing make(String root) {
            return new Outgoing(forward(root), null, 2);
        }
    }

    /** The asserting workload's root with a fresh key. */
    private final class RootMinting extends MintingStep<MintedAnonMode> {

        private final AnonModeSettings rootSettings;

        RootMinting(Duration lifetime) {
            this.rootSettings = settings.withTimeRules(settings.timeRules().withLifetime(lifetime));
        }

        @Override
        protected Minted<MintedAnonMode> make(Grant grant) {
            MintedAnonMode root = new AnonModeMinter(rootSettings, NonceSource.secureRandom())
                    .mint(grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter());
            return Minted.root(root, root.token(), root.rootIdentifier(), root.expiresAt());
        }
    }
}
