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
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
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
public class LsvidHop extends AbstractHop<Lsvid> {
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
     * A hop.
     *
     * @param v1IssuerKeys the trusted original SPIRE LSVID keys, used only under the
     *     original-compatible profile
     * @param memos makes the hop's memos: {@code lsvid-extension} (whether {@link #forward} reuses
     *     a young extension of the same document for the same audience instead of signing a new one)
     *     and the verifier's (see {@link LsvidVerifier#LsvidVerifier(LsvidSettings, Memos)})
     */
    public LsvidHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            LsvidV1IssuerKeys v1IssuerKeys,
            Memos memos) {
        super(Mode.LSVID, identity);
        this.memos = memos;
        this.extensions = new ReusedExtensions<>(memos, EXTENSION_MEMO);
        this.profile = profile;
        this.limits = limits;
        this.timeRules = timeRules;
        this.provider = provider.provider();
        this.v1IssuerKeys = v1IssuerKeys;
        this.bases = new LsvidBaseBuilder(timeRules, this.provider);
        this.extender = new LsvidExtender(timeRules, this.provider);
    }

    /** The limits documents are decoded under. */
    public Limits limits() {
        return limits;
    }

    /** Decodes a document (strict, canonical, under the limits). */
    public Lsvid decode(String encoded) {
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
    public Lsvid start(SpiffeId audience) {
        X509Svid svid = identity.signingSvid(Mode.LSVID);
        LsvidToken base = bases.current(svid.getChain(), svid.getPrivateKey());
        return extender.extend(Lsvid.of(base), base, svid.getPrivateKey(), audience);
    }

    /** Extends {@code document} with a layer addressed to {@code audience}. */
    public Lsvid extend(Lsvid document, SpiffeId audience) {
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
    public Extension forward(Lsvid document, SpiffeId audience) {
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
    public Lsvid delegate(Lsvid document, SpiffeId subject, String dpa, String dpr, Instant oauthExpiresAt) {
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
    public LsvidVerification verifyAnswer(String encoded, Role from) {
        Presenter answering = LsvidAnswers.presenterOf(encoded, identity.idOf(from), limits);
        return verifier().verify(encoded, identity.self(), answering, DelegationRule.REQUIRED);
    }

    /**
     * Every check of a document {@code caller} sent to the middle tier or the target: anchored bases,
     * every layer, the pinned delegation exactly once, this workload as audience, the caller (by
     * name and key) as bearer. Timed as {@code validate}.
     */
    @Override
    public Verified<Lsvid> verify(Received received, Caller caller) {
        Presenter presenter = Presenter.of(caller.leaf());
        LsvidVerification verified = timeValidate(
                received,
                () -> verifier().verify(received.token(), self(), presenter, DelegationRule.REQUIRED),
                v -> v.document().depth());
        return new Verified<>(verified.document(), verified.toResult(), received);
    }

    /**
     * Extends the verified document with a layer addressed to {@code next} ({@link #forward(Lsvid,
     * SpiffeId)}: a young extension may be reused), timed as {@code extend}, its size recorded.
     */
    @Override
    public Outgoing forward(Verified<Lsvid> verified, Role next) {
        return forward(verified.document(), next);
    }

    /**
     * {@link #forward(Verified, Role)} for a document this workload verified before and kept (the
     * subject workload's answer from the asserting workload).
     */
    public Outgoing forward(Lsvid document, Role next) {
        Extension extended = timeProduced(
                Operation.EXTEND,
                () -> forward(document, idOf(next)),
                e -> e.document().depth(),
                e -> e.encoded().length());
        int depth = extended.document().depth();
        return new Outgoing(extended.encoded(), null, depth);
    }

    /**
     * The subject workload's first step: its current base extended with a layer addressed to {@code
     * next} (the asserting workload), timed as {@code extend}, its size recorded.
     */
    public Outgoing begin(Role next) {
        // encoded inside the operation, so that its span carries the size (as forward's extension does)
        return timeProduced(
                Operation.EXTEND,
                () -> {
                    Lsvid started = start(idOf(next));
                    return new Outgoing(LsvidCodec.encode(started), null, started.depth());
                },
                Outgoing::depth,
                o -> o.token().length());
    }

    /**
     * The subject workload's check of the asserting workload's answer ({@link #verifyAnswer}), timed
     * as {@code validate}.
     */
    public Verified<Lsvid> accept(Received answer, Role from) {
        LsvidVerification verified = timeValidate(answer, () -> verifyAnswer(answer.token(), from), v -> v.document()
                .depth());
        return new Verified<>(verified.document(), verified.toResult(), answer);
    }

    /**
     * The asserting workload's step: verifies the document {@code caller} sent (its outermost issuer
     * by name and key, this workload as audience, no delegation yet; timed as {@code validate}) and
     * adds the delegation layer of {@code grant} addressed to the caller ({@link #delegate}; timed as
     * {@code mint}), its size recorded.
     */
    public Outgoing mint(Received subjectDocument, Caller caller, Grant grant) {
        Presenter presenter = Presenter.of(caller.leaf());
        LsvidVerification incoming = timeValidate(
                subjectDocument,
                () -> verifier().verify(subjectDocument.token(), self(), presenter, DelegationRule.ABSENT),
                v -> v.document().depth());
        // encoded inside the operation, so that its span carries the size (as an extension's encoding is)
        return timeProduced(
                Operation.MINT,
                () -> {
                    Lsvid delegated =
                            delegate(incoming.document(), grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter());
                    return new Outgoing(LsvidCodec.encode(delegated), null, delegated.depth());
                },
                Outgoing::depth,
                o -> o.token().length());
    }
}
