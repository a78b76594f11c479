package io.spiffeidt.support.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.anonmode.AnonModeExtender;
import io.spiffeidt.core.anonmode.AnonModeMinter;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.core.anonmode.VerifiedAnonMode;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.reuse.ReusedExtensions;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import java.security.Provider;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * One workload's part of Anon-Mode (docs/formats/anon-mode.md "Flows"): the verifier (roots
 * addressed to the subject workload, this workload as audience), the extender (anonymous layers,
 * or with {@code iid} when {@code spiffeidt.anon-mode.include-iid} is on), and, at the asserting
 * workload, roots with a fresh key. The {@link io.spiffeidt.support.hop.Hop} verbs: {@link
 * #verify(Received, Caller)} at the middle tier, {@link #verifyIntrospected} at the target, {@link
 * #forward(Verified, Role)}, {@link #mint} at the asserting workload, {@link #accept} and {@link
 * #forwardRoot} at the subject workload.
 *
 * <p>Thread safety: thread safe.
 */
public class AnonModeHop extends AbstractHop<VerifiedAnonMode> {

    private final ProofCheck proofCheck;

    private final AnonModeSettings settings;
    private final AnonModeVerifier verifier;
    private final AnonModeExtender extender;
    private final Provider rsaProvider;
    private final ReusedExtensions<String, String> extensions;

    /** The memo of the extensions this hop signed. */
    public static final String EXTENSION_MEMO = "anonmode-extension";

    /**
     * @param includeIid whether the layers this workload adds carry its SPIFFE ID
     * @param memos makes the hop's memos: {@value #EXTENSION_MEMO} (whether {@link #forward} reuses
     *     a young extension of the same token instead of signing a new one) and the verifier's (see
     *     {@link AnonModeVerifier#AnonModeVerifier(AnonModeSettings, Memos)})
     * @throws IllegalStateException when {@code includeIid} is on under the strict profile
     */
    public AnonModeHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            boolean includeIid,
            Memos memos) {
        super(Mode.ANON_MODE, identity);
        try {
            this.settings =
                    AnonModeSettings.forHop(identity.idOf(Role.SUBJECT_WL), profile, limits, timeRules, includeIid);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("spiffeidt.anon-mode.include-iid needs "
                    + "spiffeidt.verification.profile=original-compatible (strict verifiers reject iid)");
        }
        this.extensions = new ReusedExtensions<>(memos, EXTENSION_MEMO);
        this.verifier = new AnonModeVerifier(settings, memos);
        this.extender = new AnonModeExtender(settings, NonceSource.secureRandom());
        // the IdP key of an introspection proof is RSA: with the SunEC choice, the JDK provider
        // that has RSA checks it
        this.rsaProvider = provider.signature("SHA256withRSA").getProvider();
        this.proofCheck = new ProofCheck(Mode.ANON_MODE, settings.profile(), settings.limits(), rsaProvider);
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
    public VerifiedResult verify(String token) {
        return verifier.verify(token, identity.self());
    }

    /** Extends a token by one layer (anonymous unless {@code iid} is on). */
    public String extend(String token) {
        return extender.extend(token, identity.self());
    }

    /**
     * Extends a verified token by one layer: what a hop forwards. When extensions are reused, the
     * same token (the exact text) forwarded again gets the same extension while less than half of
     * its lifetime has passed (see {@link ReusedExtensions}; an Anon-Mode layer is signed with the
     * key the token carries, not with the SVID); otherwise a new layer is signed.
     */
    public String forward(String token) {
        return forward(token, () -> extender.extendLayer(token, identity.self()));
    }

    /** {@link #forward(String)} of a token this workload verified, extended over the verifier's parse. */
    public String forward(VerifiedAnonMode verified) {
        return forward(verified.token(), () -> extender.extendLayer(verified, identity.self()));
    }

    private String forward(String token, Supplier<AnonModeExtender.Extension> extend) {
        String kept = extensions.find(token, null);
        if (kept != null) {
            return kept;
        }
        AnonModeExtender.Extension extended = extend.get();
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

    /** The root identifier {@code P(0).R(0)} the asserting workload introspects. */
    public String rootIdentifier(String token) {
        return verifier.rootIdentifier(token);
    }

    /**
     * Mints a root with a fresh key (the asserting workload's step) addressed to {@code audience},
     * living at most {@code lifetime} and never past {@code notAfter} (the OAuth token's expiry).
     */
    public MintedAnonMode mintRoot(SpiffeId audience, String dpa, String dpr, Instant notAfter, Duration lifetime) {
        AnonModeSettings rootSettings =
                settings.withTimeRules(settings.timeRules().withLifetime(lifetime));
        return new AnonModeMinter(rootSettings, NonceSource.secureRandom()).mint(audience, dpa, dpr, notAfter);
    }

    /**
     * The check of introspection proofs for this mode (a memo of verified proofs is set on it by the
     * auto-configuration; none by default: every proof is verified in full).
     */
    public ProofCheck proofs() {
        return proofCheck;
    }

    /**
     * Every check of the concatenated verification of a token {@code caller} sent, with this
     * workload as audience (no presenter: the layers are anonymous); timed as {@code validate}.
     */
    @Override
    public Verified<VerifiedAnonMode> verify(Received received, Caller caller) {
        return accept(received);
    }

    /**
     * {@link #verify(Received, Caller)}, then the root binding (docs/formats/anon-mode.md
     * "Verification", step 5): only the root {@code P(0).R(0)} goes to the asserting workload, never
     * the hops or the bearer key; it must know it, and its proof must show an IdP-signed OAuth token
     * of the root's {@code dpa}/{@code dpr} ({@link ProofCheck}). A root it does not know is {@link
     * ErrorCode#UNTRUSTED_KEY}: the root key is random, the record is its only link to the issuer.
     */
    @Override
    public Verified<VerifiedAnonMode> verifyIntrospected(Received received, Caller caller) {
        // verified and its root read from one parse
        Verified<VerifiedAnonMode> verified = accept(received);
        String root = verified.document().rootIdentifier();
        try {
            proofCheck.introspect(
                    root, verified.delegation(), services().requireIdpKeys(), metrics(), offered -> client(
                                    Role.ASSERTING_WL)
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

    /**
     * Extends the verified token by one layer ({@link #forward(String)}: a young extension may be
     * reused; the layer names no audience, so {@code next} only says where it goes), timed as {@code
     * extend}, its size recorded.
     */
    @Override
    public Outgoing forward(Verified<VerifiedAnonMode> verified, Role next) {
        return extendTimed(() -> forward(verified.document()), verified.depth() + 1);
    }

    /**
     * {@link #forward(Verified, Role)} for a root this workload verified when it received it and
     * kept (the subject workload's step).
     */
    public Outgoing forwardRoot(String root, Role next) {
        return extendTimed(() -> forward(root), 2);
    }

    private Outgoing extendTimed(Supplier<String> forward, int depth) {
        String extended = timeProduced(Operation.EXTEND, forward, e -> depth, String::length);
        return new Outgoing(extended, null, depth);
    }

    /**
     * The subject workload's check of the root the asserting workload answered (signature, times,
     * this workload as audience, the delegation), timed as {@code validate}.
     */
    public Verified<VerifiedAnonMode> accept(Received answer) {
        String token = answer.token();
        VerifiedAnonMode verified =
                timeValidate(answer, () -> verifier.verifyOnce(token, identity.self()), v -> v.result()
                        .depth());
        // an Anon-Mode token has no artifacts: what is forwarded unchanged is the token alone
        return new Verified<>(verified, verified.result(), Received.of(token));
    }

    /**
     * The asserting workload's step: a root of {@code grant} with a fresh key ({@link #mintRoot}),
     * timed as {@code mint}, its size recorded.
     */
    public MintedAnonMode mint(Grant grant, Duration lifetime) {
        MintedAnonMode root = timeProduced(
                Operation.MINT,
                () -> mintRoot(grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter(), lifetime),
                r -> 1,
                r -> r.token().length());
        return root;
    }
}
