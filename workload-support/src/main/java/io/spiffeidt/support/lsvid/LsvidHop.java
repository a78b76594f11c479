package io.spiffeidt.support.lsvid;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidAnswers;
import io.spiffeidt.core.lsvid.LsvidBaseBuilder;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidExtender;
import io.spiffeidt.core.lsvid.LsvidPayload;
import io.spiffeidt.core.lsvid.LsvidSettings;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Minting;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.reuse.ReusedExtensions;
import java.security.PrivateKey;
import java.security.Provider;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One workload's part of LSVID (docs/formats/lsvid.md "Flows"): its own base document kept current with its
 * X.509-SVID, extensions (and, at the asserting workload, the delegation layer) signed with the
 * current SVID key, and the strict verifier for the current trust bundle, pinned to the asserting
 * workload. The {@link io.spiffeidt.support.hop.Hop} verbs: {@link #verify(Received, Caller)} at
 * the middle tier and the target, {@link #forward(Verified, Role)}, {@link #mint} at the asserting
 * workload, {@link #begin} and {@link #accept} at the subject workload.
 *
 * <p>Thread safety: thread safe; the SVID and bundle are read on every call (they rotate), and a
 * base and the key that signs over it always come from one SVID snapshot.
 */
public class LsvidHop extends AbstractHop<Lsvid, Void> {
    private final VerificationProfile profile;
    private final Limits limits;
    private final TimeRules timeRules;
    private final Provider provider;
    private final LsvidV1IssuerKeys v1IssuerKeys;
    private final LsvidBaseBuilder bases;
    private final LsvidExtender extender;
    private final AtomicReference<LsvidVerifier> verifier = new AtomicReference<>();
    private final Memos memos;
    private final ReusedExtensions<SameDocument, Extension> extensions;
    private final Beginning beginning = new Beginning();
    private final Answers answers = new Answers();
    private final KeptExtension keptExtension = new KeptExtension();
    private final Presented presented = new Presented();
    private final Delegating delegating = new Delegating();

    /** The memo of the extensions this hop signed. */
    public static final String EXTENSION_MEMO = "lsvid-extension";

    /**
     * What a reused extension is found by: the very document instance it extended (identity, not
     * equality: the subject workload's kept document, or the middle tier's document as its
     * verifier's memo of decoded documents returns it for the same bytes) and the audience.
     */
    private static final class SameDocument {
        private final Lsvid document;
        private final SpiffeId audience;

        SameDocument(Lsvid document, SpiffeId audience) {
            this.document = document;
            this.audience = audience;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SameDocument d && d.document == document && d.audience.equals(audience);
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(document) + audience.hashCode();
        }
    }

    /** An extended document and its encoded form, as {@link #forward} gives it. */
    public record Extension(Lsvid document, String encoded) {}

    /**
     * A hop, with the memos of {@code parts}: {@code lsvid-extension} (whether {@link #forward}
     * reuses a young extension of the same document for the same audience instead of signing a new
     * one) and the verifier's (see {@link LsvidVerifier#LsvidVerifier(LsvidSettings, Memos)}).
     *
     * @param v1IssuerKeys the trusted original SPIRE LSVID keys, used only under the
     *     original-compatible profile
     */
    public LsvidHop(HopParts parts, LsvidV1IssuerKeys v1IssuerKeys) {
        super(Mode.LSVID, parts, Forwarding.EXTENDS);
        this.memos = parts.memos();
        this.extensions = new ReusedExtensions<>(memos, EXTENSION_MEMO);
        this.profile = parts.profile();
        this.limits = parts.limits();
        this.timeRules = parts.timeRules();
        this.provider = parts.provider().provider();
        this.v1IssuerKeys = v1IssuerKeys;
        this.bases = new LsvidBaseBuilder(timeRules, this.provider);
        this.extender = new LsvidExtender(timeRules, this.provider);
    }

    /**
     * Parses a document without verifying it (strict, canonical, under the limits): the name every
     * hop's reader has.
     */
    public Lsvid parse(String encoded) {
        return LsvidCodec.decode(encoded, limits);
    }

    /** The verifier for the current trust bundle (rebuilt, with new memos, when the bundle changes). */
    public LsvidVerifier verifier() {
        TrustBundle bundle = identity.bundle();
        LsvidVerifier current = verifier.get();
        if (current != null && current.settings().trustBundle().equals(bundle)) {
            return current;
        }
        LsvidVerifier fresh = new LsvidVerifier(
                new LsvidSettings(
                        identity.idOf(Role.ASSERTING_WL),
                        bundle,
                        profile,
                        limits,
                        timeRules,
                        v1IssuerKeys.keys(),
                        provider),
                memos);
        verifier.set(fresh);
        return fresh;
    }

    /** This workload's current base, extended with a first layer addressed to {@code audience}. */
    Lsvid start(SpiffeId audience) {
        X509Svid svid = identity.signingSvid(Mode.LSVID);
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(Lsvid.of(base), base, svid.getPrivateKey(), audience);
    }

    /** Extends {@code document} with a layer addressed to {@code audience}. */
    Lsvid extend(Lsvid document, SpiffeId audience) {
        X509Svid svid = identity.signingSvid(Mode.LSVID);
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(document, base, svid.getPrivateKey(), audience);
    }

    /**
     * Extends {@code document} with a layer addressed to {@code audience} and encodes it: what a hop
     * forwards. When extensions are reused, the same document instance forwarded to the same
     * audience again gets the same extension while less than half of its lifetime has passed and
     * the SVID has not rotated (the extension is signed over the current base, which a rotated SVID
     * replaces; see {@link ReusedExtensions}); otherwise a new layer is signed.
     */
    Extension forward(Lsvid document, SpiffeId audience) {
        X509Svid svid = identity.signingSvid(Mode.LSVID);
        PrivateKey key = svid.getPrivateKey();
        LsvidToken base = bases.current(svid.getChain(), key);
        SameDocument same = new SameDocument(document, audience);
        Extension kept = extensions.find(same, base);
        if (kept != null) {
            return kept;
        }
        Lsvid extended = extender.extend(document, base, key, audience);
        Extension fresh = new Extension(extended, LsvidCodec.encode(extended));
        LsvidPayload layer = extended.token().payload();
        extensions.remember(same, base, fresh, Instant.ofEpochSecond(layer.iat()), Instant.ofEpochSecond(layer.exp()));
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
     * Adds the delegation layer ({@code dpa}, {@code dpr}) addressed to {@code subject} (the
     * asserting workload's step); the layer never outlives the OAuth token it came from.
     *
     * @throws AssertionException {@link ErrorCode#EXPIRED} when the OAuth token has no time left
     */
    Lsvid delegate(Lsvid document, SpiffeId subject, String dpa, String dpr, Instant oauthExpiresAt) {
        TimeRules rules = timeRules.forDelegationUntil(oauthExpiresAt);
        X509Svid svid = identity.signingSvid(Mode.LSVID);
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return new LsvidExtender(rules, provider)
                .extendWithDelegation(document, base, svid.getPrivateKey(), subject, dpa, dpr);
    }

    /**
     * Verifies a document a downstream workload answered (the subject workload's check of what the
     * asserting workload returns): the strict checks with this workload as audience and the
     * delegation required, presented by the configured SPIFFE ID of {@code from} as {@link
     * LsvidAnswers} derives it.
     *
     * @throws AssertionException as the verifier, and {@link ErrorCode#MALFORMED} when the answer has
     *     no extension layer
     */
    LsvidVerification verifyAnswer(String encoded, Role from) {
        Presenter answering = LsvidAnswers.presenterOf(encoded, identity.idOf(from), limits);
        return verifier().verify(encoded, identity.self(), answering, DelegationRule.REQUIRED);
    }

    /**
     * Every check of a document {@code caller} sent to the middle tier or the target: anchored bases,
     * every layer, the pinned delegation exactly once, this workload as audience, the caller (by
     * name and key) as bearer.
     */
    @Override
    protected Verified<Lsvid> check(Received received, Caller caller, Void none) {
        LsvidVerification verified =
                verifier().verify(received.token(), self(), Presenter.of(caller.leaf()), DelegationRule.REQUIRED);
        return new Verified<>(verified.document(), verified.toResult(), received);
    }

    /**
     * Extends the verified document with a layer addressed to {@code next} ({@link #forward(Lsvid,
     * SpiffeId)}: a young extension may be reused).
     */
    @Override
    protected Outgoing onward(Verified<Lsvid> verified, Role next) {
        return extended(verified.document(), next);
    }

    /**
     * {@link #forward(Verified, Role)} for a document this workload verified before and kept (the
     * subject workload's answer from the asserting workload), timed as {@code extend}, its size
     * recorded.
     */
    public Outgoing forward(Lsvid document, Role next) {
        return keptExtension.run(new Onward(document, next));
    }

    /**
     * The subject workload's first step: its current base extended with a layer addressed to {@code
     * next} (the asserting workload), timed as {@code extend}, its size recorded.
     */
    public Outgoing begin(Role next) {
        return beginning.run(next);
    }

    /**
     * The subject workload's check of the asserting workload's answer ({@link #verifyAnswer}, the
     * asserting workload as presenter), timed as {@code validate}.
     */
    public Verified<Lsvid> accept(Received answer) {
        return answers.run(answer, null);
    }

    /**
     * The asserting workload's step, the one that does not mint from a grant alone ({@link Minting}
     * says why): verifies the document {@code caller} sent (its outermost issuer by name and key, this
     * workload as audience, no delegation yet; timed as {@code validate}) and adds the delegation
     * layer of {@code grant} addressed to the caller ({@link #delegate}; timed as {@code mint}), its
     * size recorded. Nothing is kept: the target verifies offline.
     */
    public Minted<Lsvid> mint(Received subjectDocument, Caller caller, Grant grant) {
        LsvidVerification incoming = presented.run(subjectDocument, caller);
        return delegating.run(new Delegated(incoming.document(), grant));
    }

    private Outgoing extended(Lsvid document, Role next) {
        Extension extended = forward(document, idOf(next));
        return new Outgoing(extended.encoded(), null, extended.document().depth());
    }

    private record Onward(Lsvid document, Role next) {}

    private record Delegated(Lsvid document, Grant grant) {}

    /** The subject workload's base with a first layer; encoded inside the step, so its span carries the size. */
    private final class Beginning extends OutgoingProduction<Role> {

        Beginning() {
            super(Operation.EXTEND);
        }

        @Override
        protected Outgoing make(Role next) {
            Lsvid started = start(idOf(next));
            return new Outgoing(LsvidCodec.encode(started), null, started.depth());
        }
    }

    /** The subject workload's check of the asserting workload's answer. */
    private final class Answers extends Check<Verified<Lsvid>> {

        @Override
        protected Verified<Lsvid> apply(Received answer, Caller none) {
            LsvidVerification verified = verifyAnswer(answer.token(), Role.ASSERTING_WL);
            return new Verified<>(verified.document(), verified.toResult(), answer);
        }

        @Override
        protected int depthOf(Verified<Lsvid> checked) {
            return checked.depth();
        }
    }

    /** The subject workload's extension of its kept document. */
    private final class KeptExtension extends OutgoingProduction<Onward> {

        KeptExtension() {
            super(Operation.EXTEND);
        }

        @Override
        protected Outgoing make(Onward onward) {
            return extended(onward.document(), onward.next());
        }
    }

    /** The asserting workload's check of the subject workload's document: no delegation yet. */
    private final class Presented extends Check<LsvidVerification> {

        @Override
        protected LsvidVerification apply(Received received, Caller caller) {
            return verifier().verify(received.token(), self(), Presenter.of(caller.leaf()), DelegationRule.ABSENT);
        }

        @Override
        protected int depthOf(LsvidVerification checked) {
            return checked.document().depth();
        }
    }

    /** The asserting workload's delegation layer; encoded inside the step, so its span carries the size. */
    private final class Delegating extends MintedProduction<Delegated, Lsvid> {

        @Override
        protected Minted<Lsvid> make(Delegated order) {
            Grant grant = order.grant();
            Lsvid delegated = delegate(order.document(), grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter());
            Instant expiresAt =
                    Instant.ofEpochSecond(delegated.token().payload().exp());
            return new Minted<>(delegated, LsvidCodec.encode(delegated), null, delegated.depth(), null, expiresAt);
        }
    }
}
