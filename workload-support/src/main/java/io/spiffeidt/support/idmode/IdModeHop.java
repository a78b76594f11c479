package io.spiffeidt.support.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeExtender;
import io.spiffeidt.core.idmode.IdModeMinter;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeSettings;
import io.spiffeidt.core.idmode.IdModeToken;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.SvidBound;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.reuse.ReusedExtensions;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One workload's part of ID-Mode (docs/formats/id-mode.md "Flows"): the strict verifier pinned to the
 * asserting workload (for the current trust bundles), and layers signed with the current X.509-SVID
 * key and chain, taken from one SVID snapshot. The {@link io.spiffeidt.support.hop.Hop} verbs:
 * {@link #verify(Received, Caller)} and {@link #verifyIntrospected} at the middle tier and the
 * target, {@link #forward(Verified, Role)}, {@link #mint} at the asserting workload, {@link
 * #accept} at the subject workload.
 *
 * <p>Thread safety: thread safe; the SVID is read on every signature (it rotates).
 */
public class IdModeHop extends AbstractHop<VerifiedIdMode> {

    private final ProofCheck proofCheck;

    private final Provider provider;
    private final Limits limits;
    private final TimeRules timeRules;
    private final IdModeVerifier verifier;
    private final SvidBound<IdModeCredentials> credentials;
    private final Provider rsaProvider;
    private final VerificationProfile profile;
    private final ReusedExtensions<SameToken, Forwarded> extensions;

    /** The memo of the extensions this hop signed. */
    public static final String EXTENSION_MEMO = "idmode-extension";

    /** An extended token and its artifacts in JSON form, as {@link #forward} gives them. */
    public record Forwarded(IdModePresentation presentation, String artifacts) {}

    /** What a reused extension is found by: the exact token and artifacts it extended, and the audience. */
    private record SameToken(String token, List<List<String>> artifacts, SpiffeId audience) {}

    /**
     * A hop.
     *
     * @param memos makes the hop's memos: {@value #EXTENSION_MEMO} (whether {@link #forward} reuses
     *     a young extension of the same token for the same audience instead of signing a new one) and
     *     the verifier's (see {@link IdModeVerifier#IdModeVerifier(IdModeSettings, Provider, Memos)})
     */
    public IdModeHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            Memos memos) {
        super(Mode.ID_MODE, identity);
        this.provider = provider.provider();
        this.limits = limits;
        this.timeRules = timeRules;
        this.extensions = new ReusedExtensions<>(memos, EXTENSION_MEMO);
        this.verifier = new IdModeVerifier(
                new IdModeSettings(identity.idOf(Role.ASSERTING_WL), identity::bundleFor, profile, limits, timeRules),
                this.provider,
                memos);
        this.credentials =
                new SvidBound<>(identity, svid -> IdModeCredentials.of(svid.getPrivateKey(), svid.getChain()));
        // the IdP key of an introspection proof is RSA: with the SunEC choice, the JDK provider
        // that has RSA checks it
        this.rsaProvider = provider.signature("SHA256withRSA").getProvider();
        this.profile = profile;
        this.proofCheck = new ProofCheck(Mode.ID_MODE, profile, limits, rsaProvider);
    }

    /** The verifier (pinned to the asserting workload). */
    public IdModeVerifier verifier() {
        return verifier;
    }

    /** Parses a token under the limits (no signature checked). */
    public IdModeToken parse(String token) {
        return IdModeToken.parse(token, limits);
    }

    /**
     * Every check of docs/formats/id-mode.md, with this workload as audience and {@code presenter} (the mTLS
     * peer) bound to the outermost layer.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the artifacts are missing, else as
     *     the verifier
     */
    public VerifiedIdMode verify(String token, String artifacts, Presenter presenter) {
        return verifier.verifyEncoded(token, artifacts, self(), presenter);
    }

    /**
     * Every check but the presenter binding: for a token this workload received as an answer over a
     * client connection that authorized the answering peer's SPIFFE ID.
     */
    public VerifiedIdMode verifyAnswer(String token, String artifacts) {
        return verifier.verifyEncodedWithoutPresenter(token, artifacts, self());
    }

    /**
     * The subject workload's check of the asserting workload's answer ({@link #verifyAnswer}), timed
     * as {@code validate}.
     */
    public Verified<VerifiedIdMode> accept(Received answer) {
        VerifiedIdMode verified =
                timeValidate(answer, () -> verifyAnswer(answer.token(), answer.artifacts()), VerifiedIdMode::depth);
        return new Verified<>(verified, verified.result(), answer);
    }

    /**
     * An answer this workload verified in full ({@link #verifyAnswer}) and keeps for its next uses
     * (docs/operations.md "Kept documents"): reusable while the trust bundle of every issuer's trust
     * domain is the one it was verified under and the time is before {@code validUntil}, the earliest
     * expiry of its layers and of its certificates.
     *
     * <p>Thread safety: immutable.
     *
     * @param verified the verified answer
     * @param bundles the trust bundles it was verified under, by trust domain
     * @param validUntil the earliest expiry of its layers and certificates
     */
    public record KeptAnswer(VerifiedIdMode verified, Map<String, TrustBundle> bundles, Instant validUntil) {

        /** Requires every part and copies the bundles. */
        public KeptAnswer {
            Objects.requireNonNull(verified, "verified");
            bundles = Map.copyOf(bundles);
            Objects.requireNonNull(validUntil, "validUntil");
        }
    }

    /**
     * {@link #verifyAnswer} for an answer this workload keeps: the trust bundles of the issuers' trust
     * domains are read before the verification, so a bundle that changes meanwhile only makes the
     * first reuse verify again.
     */
    public KeptAnswer verifyAnswerToKeep(String token, String artifacts) {
        return timeValidate(
                new Received(token, artifacts), () -> verifyAnswerKeeping(token, artifacts), kept -> kept.verified()
                        .depth());
    }

    private KeptAnswer verifyAnswerKeeping(String token, String artifacts) {
        // parsed once: to read the issuers before verifying, then verified as parsed
        IdModeToken parsed = parse(token);
        Map<String, TrustBundle> bundles = new HashMap<>();
        for (int k = 0; k < parsed.depth(); k++) {
            String trustDomain = parsed.claims(k).issuer().trustDomain();
            identity.bundleFor(trustDomain).ifPresent(b -> bundles.put(trustDomain, b));
        }
        if (artifacts == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        VerifiedIdMode verified =
                verifier.verifyWithoutPresenter(parsed, IdModeArtifacts.parse(artifacts, limits), self());
        Instant until = Instant.MAX;
        for (LayerInfo layer : verified.result().layers()) {
            // a layer without exp (original profile) is not kept: every use verifies it again
            until = earliest(until, layer.expiresAt() == null ? Instant.MIN : layer.expiresAt());
        }
        for (List<X509Certificate> chain : verified.presentation().artifacts().chains()) {
            for (X509Certificate certificate : chain) {
                until = earliest(until, certificate.getNotAfter().toInstant());
            }
        }
        return new KeptAnswer(verified, bundles, until);
    }

    /**
     * The kept answer while it holds: before its {@code validUntil} and under the same trust bundles.
     * Empty otherwise: the caller verifies the answer again, and that verification says what failed.
     */
    public Optional<VerifiedIdMode> reuse(KeptAnswer kept) {
        if (kept.bundles().isEmpty() || !timeRules.now().isBefore(kept.validUntil())) {
            return Optional.empty();
        }
        for (Map.Entry<String, TrustBundle> e : kept.bundles().entrySet()) {
            if (!identity.bundleFor(e.getKey()).equals(Optional.of(e.getValue()))) {
                return Optional.empty();
            }
        }
        return Optional.of(kept.verified());
    }

    private static Instant earliest(Instant a, Instant b) {
        return b.isBefore(a) ? b : a;
    }

    /** Extends a verified token with a layer addressed to {@code audience}. */
    public IdModePresentation extend(VerifiedIdMode verified, SpiffeId audience) {
        identity.signingSvid(Mode.ID_MODE);
        return new IdModeExtender(credentials.get(), timeRules, limits, provider).extend(verified, audience);
    }

    /**
     * Extends a verified token with a layer addressed to {@code audience}, with the artifacts in JSON
     * form: what a hop forwards. When extensions are reused, the same token (the exact text with the
     * exact artifacts) forwarded to the same audience again gets the same extension while less than
     * half of its lifetime has passed and the SVID has not rotated (see {@link ReusedExtensions});
     * otherwise a new layer is signed.
     */
    public Forwarded forward(VerifiedIdMode verified, SpiffeId audience) {
        identity.signingSvid(Mode.ID_MODE);
        IdModeCredentials self = credentials.get();
        IdModePresentation received = verified.presentation();
        SameToken same = new SameToken(received.token(), received.artifacts().toBase64(), audience);
        Forwarded kept = extensions.find(same, self);
        if (kept != null) {
            return kept;
        }
        IdModeExtender.Extension extended =
                new IdModeExtender(self, timeRules, limits, provider).extendLayer(verified, audience);
        Forwarded fresh = new Forwarded(
                extended.presentation(), extended.presentation().artifacts().toJson());
        extensions.remember(same, self, fresh, extended.issuedAt(), extended.expiresAt());
        return fresh;
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
     * Mints a root layer (the asserting workload's step) addressed to {@code audience}, living at
     * most {@code lifetime} and never past {@code notAfter} (the OAuth token's expiry).
     */
    public IdModePresentation mintRoot(SpiffeId audience, String dpa, String dpr, Instant notAfter, Duration lifetime) {
        identity.signingSvid(Mode.ID_MODE);
        return new IdModeMinter(credentials.get(), timeRules.withLifetime(lifetime), limits, provider)
                .mint(audience, dpa, dpr, notAfter);
    }

    /**
     * The root {@code P(0).S(0)} of a token: what the asserting workload introspects (the path
     * beyond it is none of its business).
     */
    public String rootOf(String token) {
        return parse(token).prefix(1);
    }

    /**
     * The check of introspection proofs for this mode (a memo of verified proofs is set on it by the
     * auto-configuration; none by default: every proof is verified in full).
     */
    public ProofCheck proofs() {
        return proofCheck;
    }

    /**
     * Every check of docs/formats/id-mode.md of a token {@code caller} sent (bound to the outermost
     * layer by SPIFFE ID and key), with this workload as audience; timed as {@code validate}.
     */
    @Override
    public Verified<VerifiedIdMode> verify(Received received, Caller caller) {
        VerifiedIdMode verified = timeValidate(
                received,
                () -> verify(received.token(), received.artifacts(), Presenter.of(caller.leaf())),
                VerifiedIdMode::depth);
        return new Verified<>(verified, verified.result(), received);
    }

    /**
     * {@link #verify(Received, Caller)}, then the root {@code P(0).S(0)} (only the root: the path
     * beyond it is none of the asserting workload's business) is introspected at the asserting
     * workload and its proof checked against the root's {@code dpa}/{@code dpr} ({@link ProofCheck}:
     * {@code introspect_call}, {@code zkp_verification}).
     */
    @Override
    public Verified<VerifiedIdMode> verifyIntrospected(Received received, Caller caller) {
        Verified<VerifiedIdMode> verified = verify(received, caller);
        String root = verified.document().token().prefix(1);
        proofCheck.introspect(root, verified.delegation(), services().requireIdpKeys(), metrics(), offered -> client(
                        Role.ASSERTING_WL)
                .post("/id-mode/introspect", IntrospectRequest.of(root, offered), IntrospectionAnswer.class));
        return verified;
    }

    /**
     * Extends the verified token with a layer addressed to {@code next} ({@link
     * #forward(VerifiedIdMode, SpiffeId)}: a young extension may be reused), timed as {@code extend},
     * its size (token and artifacts) recorded.
     */
    @Override
    public Outgoing forward(Verified<VerifiedIdMode> verified, Role next) {
        return forward(verified.document(), next);
    }

    /**
     * {@link #forward(Verified, Role)} for a token this workload verified before and kept (the
     * subject workload's root).
     */
    public Outgoing forward(VerifiedIdMode verified, Role next) {
        int depth = verified.depth() + 1;
        Forwarded extended =
                timeProduced(Operation.EXTEND, () -> forward(verified, idOf(next)), f -> depth, f -> f.presentation()
                        .size()
                        .totalBytes());
        return new Outgoing(extended.presentation().token(), extended.artifacts(), depth);
    }

    /**
     * The asserting workload's step: the root layer of {@code grant} ({@link #mintRoot}), timed as
     * {@code mint}, its size recorded.
     */
    public IdModePresentation mint(Grant grant, Duration lifetime) {
        IdModePresentation root = timeProduced(
                Operation.MINT,
                () -> mintRoot(grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter(), lifetime),
                r -> 1,
                r -> r.size().totalBytes());
        return root;
    }
}
