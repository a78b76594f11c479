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
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeExtender;
import io.spiffeidt.core.idmode.IdModeMinter;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeSettings;
import io.spiffeidt.core.idmode.IdModeToken;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.core.idmode.VerifiedIdMode;
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
 * {@link #verify(Received, Caller)} and {@link #introspection()} at the middle tier and the
 * target, {@link #forward(Verified, Role)}, {@link #minting()} at the asserting workload, {@link
 * #accept} and {@link #forward(VerifiedIdMode, Role)} at the subject workload.
 *
 * <p>Thread safety: thread safe; the SVID is read on every signature (it rotates).
 */
public class IdModeHop extends AbstractHop<VerifiedIdMode, Void> {

    private final ProofCheck proofCheck;

    private final Provider provider;
    private final Limits limits;
    private final TimeRules timeRules;
    private final IdModeVerifier verifier;
    private final SvidBound<IdModeCredentials> credentials;
    private final ReusedExtensions<SameToken, Forwarded> extensions;
    private final Optional<Introspection<VerifiedIdMode>> introspection = Optional.of(new Introspected());
    private final Answers answers = new Answers();
    private final KeptAnswers keptAnswers = new KeptAnswers();
    private final KeptExtension keptExtension = new KeptExtension();
    private final Optional<Minting<IdModePresentation>> minting;

    /** The memo of the extensions this hop signed. */
    public static final String EXTENSION_MEMO = "idmode-extension";

    /** An extended token and its artifacts in JSON form, as {@link #forward} gives them. */
    public record Forwarded(IdModePresentation presentation, String artifacts) {}

    /** What a reused extension is found by: the exact token and artifacts it extended, and the audience. */
    private record SameToken(String token, List<List<String>> artifacts, SpiffeId audience) {}

    /**
     * A hop, with the memos of {@code parts}: {@value #EXTENSION_MEMO} (whether {@link #forward}
     * reuses a young extension of the same token for the same audience instead of signing a new one)
     * and the verifier's (see {@link IdModeVerifier}).
     */
    public IdModeHop(HopParts parts) {
        this(parts, null);
    }

    /**
     * The asserting workload's hop: {@link #IdModeHop(HopParts)} that also mints root layers ({@link
     * #minting()}) living at most {@code rootLifetime}.
     *
     * @param rootLifetime the lifetime of a root layer, or {@code null} for a hop that mints nothing
     */
    public IdModeHop(HopParts parts, Duration rootLifetime) {
        super(Mode.ID_MODE, parts, Forwarding.EXTENDS);
        WorkloadIdentity identity = parts.identity();
        this.provider = parts.provider().provider();
        this.limits = parts.limits();
        this.timeRules = parts.timeRules();
        this.extensions = new ReusedExtensions<>(parts.memos(), EXTENSION_MEMO);
        this.verifier = new IdModeVerifier(
                new IdModeSettings(
                        identity.idOf(Role.ASSERTING_WL), identity::bundleFor, parts.profile(), limits, timeRules),
                this.provider,
                parts.memos());
        this.credentials =
                new SvidBound<>(identity, svid -> IdModeCredentials.of(svid.getPrivateKey(), svid.getChain()));
        // the IdP key of an introspection proof is RSA: with the SunEC choice, the JDK provider
        // that has RSA checks it
        Provider rsaProvider = parts.provider().signature("SHA256withRSA").getProvider();
        this.proofCheck = new ProofCheck(
                Mode.ID_MODE,
                parts.profile(),
                limits,
                rsaProvider,
                parts.verifiedProofs(),
                parts.services().metrics());
        this.minting = rootLifetime == null ? Optional.empty() : Optional.of(new RootMinting(rootLifetime));
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
    VerifiedIdMode verify(String token, String artifacts, Presenter presenter) {
        return verifier.verifyEncoded(token, artifacts, self(), presenter);
    }

    /**
     * Every check but the presenter binding: for a token this workload received as an answer over a
     * client connection that authorized the answering peer's SPIFFE ID.
     */
    VerifiedIdMode verifyAnswer(String token, String artifacts) {
        return verifier.verifyEncodedWithoutPresenter(token, artifacts, self());
    }

    /**
     * The subject workload's check of the asserting workload's answer ({@link #verifyAnswer}), timed
     * as {@code validate}.
     */
    public Verified<VerifiedIdMode> accept(Received answer) {
        return answers.run(answer, null);
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
     * {@link #accept} for an answer this workload keeps: the trust bundles of the issuers' trust
     * domains are read before the verification, so a bundle that changes meanwhile only makes the
     * first reuse verify again.
     */
    public KeptAnswer acceptToKeep(Received answer) {
        return keptAnswers.run(answer, null);
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
    IdModePresentation extend(VerifiedIdMode verified, SpiffeId audience) {
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
    Forwarded forward(VerifiedIdMode verified, SpiffeId audience) {
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
     * Every check of docs/formats/id-mode.md of a token {@code caller} sent (bound to the outermost
     * layer by SPIFFE ID and key), with this workload as audience.
     */
    @Override
    protected Verified<VerifiedIdMode> check(Received received, Caller caller, Void none) {
        VerifiedIdMode verified = verify(received.token(), received.artifacts(), Presenter.of(caller.leaf()));
        return new Verified<>(verified, verified.result(), received);
    }

    /**
     * {@link #verify(Received, Caller)}, then the root {@code P(0).S(0)} (only the root: the path
     * beyond it is none of the asserting workload's business) is introspected at the asserting
     * workload and its proof checked against the root's {@code dpa}/{@code dpr} ({@link ProofCheck}:
     * {@code introspect_call}, {@code zkp_verification}).
     */
    @Override
    public Optional<Introspection<VerifiedIdMode>> introspection() {
        return introspection;
    }

    /**
     * Extends the verified token with a layer addressed to {@code next} ({@link
     * #forward(VerifiedIdMode, SpiffeId)}: a young extension may be reused).
     */
    @Override
    protected Outgoing onward(Verified<VerifiedIdMode> verified, Role next) {
        return extended(verified.document(), next);
    }

    /**
     * {@link #forward(Verified, Role)} for a token this workload verified before and kept (the
     * subject workload's root), timed as {@code extend}, its size (token and artifacts) recorded.
     */
    public Outgoing forward(VerifiedIdMode verified, Role next) {
        return keptExtension.run(new Onward(verified, next));
    }

    /**
     * The asserting workload's step, where this hop was given the roots' lifetime: the root layer of
     * the grant, signed with the current X.509-SVID key, its artifacts holding this workload's chain;
     * its introspection record is found by the root as the holder cannot rewrite it (an ECDSA root has
     * two valid texts, s and n - s).
     */
    @Override
    public Optional<Minting<IdModePresentation>> minting() {
        return minting;
    }

    private Outgoing extended(VerifiedIdMode verified, Role next) {
        Forwarded extended = forward(verified, idOf(next));
        return new Outgoing(extended.presentation().token(), extended.artifacts(), verified.depth() + 1);
    }

    private record Onward(VerifiedIdMode verified, Role next) {}

    private final class Introspected implements Introspection<VerifiedIdMode> {

        @Override
        public Verified<VerifiedIdMode> verify(Received received, Caller caller) {
            Verified<VerifiedIdMode> verified = IdModeHop.this.verify(received, caller);
            String root = verified.document().token().prefix(1);
            proofCheck.introspect(root, verified.delegation(), services().requireIdpKeys(), offered -> client(
                            Role.ASSERTING_WL)
                    .post("/id-mode/introspect", IntrospectRequest.of(root, offered), IntrospectionAnswer.class));
            return verified;
        }
    }

    /** The subject workload's check of the asserting workload's answer. */
    private final class Answers extends Check<Verified<VerifiedIdMode>> {

        @Override
        protected Verified<VerifiedIdMode> apply(Received answer, Caller none) {
            VerifiedIdMode verified = verifyAnswer(answer.token(), answer.artifacts());
            return new Verified<>(verified, verified.result(), answer);
        }

        @Override
        protected int depthOf(Verified<VerifiedIdMode> checked) {
            return checked.depth();
        }
    }

    /** {@link Answers} for an answer kept with the trust bundles it was verified under. */
    private final class KeptAnswers extends Check<KeptAnswer> {

        @Override
        protected KeptAnswer apply(Received answer, Caller none) {
            return verifyAnswerKeeping(answer.token(), answer.artifacts());
        }

        @Override
        protected int depthOf(KeptAnswer checked) {
            return checked.verified().depth();
        }
    }

    /** The subject workload's extension of its kept root. */
    private final class KeptExtension extends OutgoingProduction<Onward> {

        KeptExtension() {
            super(Operation.EXTEND);
        }

        @Override
        protected Outgoing make(Onward onward) {
            return extended(onward.verified(), onward.next());
        }
    }

    /** The asserting workload's root layer. */
    private final class RootMinting extends MintingStep<IdModePresentation> {

        private final TimeRules rootTimeRules;

        RootMinting(Duration lifetime) {
            this.rootTimeRules = timeRules.withLifetime(lifetime);
        }

        @Override
        protected Minted<IdModePresentation> make(Grant grant) {
            identity.signingSvid(Mode.ID_MODE);
            IdModePresentation root = new IdModeMinter(credentials.get(), rootTimeRules, limits, provider)
                    .mint(grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter());
            IdModeToken parsed = parse(root.token());
            return new Minted<>(
                    root,
                    root.token(),
                    root.artifacts().toJson(),
                    1,
                    parsed.rootId(),
                    parsed.claims(0).expiresAt());
        }
    }
}
