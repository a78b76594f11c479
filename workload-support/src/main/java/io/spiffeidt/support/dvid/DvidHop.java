package io.spiffeidt.support.dvid;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.dvid.Dvid;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidMintRequest;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.RemoteValidation;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClient;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import java.security.Provider;
import java.time.Duration;

/**
 * One workload's part of DVID (docs/formats/dvid.md "Flows"): the settings pinned to the asserting
 * workload, acceptance of the asserting workload's remote validation, the check of an
 * introspection proof, and reading a received DVID for display. The asserting workload builds its
 * minter and verifier from {@link #mintingSettings}.
 *
 * <p>The {@link io.spiffeidt.support.hop.Hop} verbs: {@link #verify(Received, Caller)} (at the
 * target: here with the asserting workload's keys when {@link #validatesLocally()}, else at the
 * asserting workload's {@code /dvid/validate}; at the middle tier: always there), {@link
 * #verifyIntrospected} (the middle tier's validation and introspection, one call when {@link
 * #introspectsInOneCall()}), {@link #forward(Verified, Role)} (the DVID unchanged), and at the
 * asserting workload {@link #mint} and {@link #validate}.
 *
 * <p>Thread safety: thread safe.
 */
public class DvidHop extends AbstractHop<VerifiedDvid> {

    /** The memo of the asserting workload's key set: on, a tier verifies DVIDs itself. */
    public static final String KEYS_MEMO = "dvid-keys";

    private final ProofCheck proofCheck;
    private final MemoSettings keysMemo;

    private final Provider provider;
    private final DvidSettings settings;

    /** The verifier of {@link #validatesLocally()}, built at the first use. */
    private volatile DvidVerifier here;

    public DvidHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            Memos memos) {
        super(Mode.DVID, identity);
        this.keysMemo = memos.settings(KEYS_MEMO);
        this.provider = provider.provider();
        this.settings = new DvidSettings(
                identity.idOf(Role.ASSERTING_WL),
                identity.self().trustDomain(),
                DvidAlgorithm.RS256,
                profile,
                limits,
                timeRules,
                DvidSettings.DEFAULT_ZKP_ROUNDS);
        this.proofCheck = new ProofCheck(Mode.DVID, settings.profile(), settings.limits(), this.provider);
    }

    /**
     * Whether {@link #verify(Received, Caller)} verifies here, with the asserting workload's keys
     * this workload holds ({@link DvidKeySet}), instead of asking the asserting workload: at the
     * target, while the memo {@value #KEYS_MEMO} is on (docs/formats/dvid.md §6, "Where a DVID is
     * verified"). With it off every DVID is validated remotely, as in the original.
     */
    public boolean validatesLocally() {
        return verifiesLocally() && self().equals(idOf(Role.TARGET_WL));
    }

    /**
     * Whether the memo {@value #KEYS_MEMO} of the asserting workload's key set is on: then the target
     * verifies DVIDs itself ({@link #validatesLocally()}) instead of asking the asserting workload.
     */
    public boolean verifiesLocally() {
        return keysMemo.remembers();
    }

    /** The verification settings, pinned to the asserting workload. */
    public DvidSettings settings() {
        return settings;
    }

    /**
     * The settings the asserting workload mints and verifies with: its own SPIFFE ID as issuer,
     * {@code algorithm} (that of its signing key), documents living {@code lifetime}.
     */
    public DvidSettings mintingSettings(DvidAlgorithm algorithm, Duration lifetime, int zkpRounds) {
        return new DvidSettings(
                identity.self(),
                identity.self().trustDomain(),
                algorithm,
                settings.profile(),
                settings.limits(),
                settings.timeRules().withLifetime(lifetime),
                zkpRounds);
    }

    /**
     * Accepts the asserting workload's answer to {@code /dvid/validate} (the middle tier's and the
     * target's verification): its {@code sub} must be the subject workload.
     */
    public VerifiedDvid acceptValidation(ValidateResponse answer) {
        return RemoteValidation.accept(answer.result(), answer.jti(), answer.subject(), identity.idOf(Role.SUBJECT_WL));
    }

    /**
     * A verifier of DVIDs with this hop's settings (the pinned asserting workload) and provider, for
     * a tier that verifies them itself instead of asking the asserting workload (docs/formats/dvid.md
     * §6, "Where a DVID is verified").
     *
     * @param keys the asserting workload's keys, usually a {@link DvidKeySet}
     * @param idpKeys the IdP's keys, for a DVID that embeds its proof
     */
    public DvidVerifier verifier(DvidKeyResolver keys, IdpKeyResolver idpKeys) {
        return new DvidVerifier(settings, provider, keys, idpKeys);
    }

    /**
     * Whether the middle tier introspects a DVID in one call, offering the digest of the proof it
     * holds (the memo {@code oauth-proof} on), rather than in two, as the original did.
     */
    public boolean introspectsInOneCall() {
        return proofCheck.remembers();
    }

    /**
     * Verifies {@code token} here, for this workload, with a verifier from {@link #verifier}: the
     * same checks the asserting workload's {@code /dvid/validate} runs, and the rule of {@link
     * #acceptValidation} (its {@code sub} must be the subject workload).
     */
    public VerifiedDvid verifyHere(DvidVerifier verifier, String token) {
        return RemoteValidation.accept(verifier.verify(token, identity.self()), identity.idOf(Role.SUBJECT_WL));
    }

    /**
     * The check of introspection proofs for this mode (a memo of verified proofs is set on it by the
     * auto-configuration; none by default: every proof is verified in full).
     */
    public ProofCheck proofs() {
        return proofCheck;
    }

    /** Reads a DVID received from the asserting workload, for display; nothing is verified. */
    public CompactJws read(String token) {
        return CompactJws.parse(token);
    }

    /**
     * Verifies a DVID {@code caller} forwarded, for this workload: here when {@link
     * #validatesLocally()} ({@code validate}), else at the asserting workload ({@code
     * validate_call}) whose answer is accepted ({@code validate}); either way its {@code sub} must be
     * the subject workload. The caller is not bound: a DVID names its subject, not its bearer.
     */
    @Override
    public Verified<VerifiedDvid> verify(Received received, Caller caller) {
        String token = received.token();
        if (validatesLocally()) {
            DvidVerifier verifier = localVerifier();
            VerifiedDvid dvid = timeValidate(received, () -> verifyHere(verifier, token), d -> 1);
            return new Verified<>(dvid, dvid.result(), received);
        }
        ValidateResponse validated = asserting()
                .post(Operation.VALIDATE_CALL, "/dvid/validate", ValidateRequest.of(token), ValidateResponse.class);
        return accepted(validated, received);
    }

    /**
     * The middle tier's verification: the asserting workload's validation, then its introspection of
     * the DVID and the proof check against the DVID's {@code dpa}/{@code dpr} ({@link ProofCheck},
     * under the IdP key this workload resolves itself). One call when {@link
     * #introspectsInOneCall()} (the proof held for the DVID offered by digest), else two.
     */
    @Override
    public Verified<VerifiedDvid> verifyIntrospected(Received received, Caller caller) {
        String token = received.token();
        DownstreamClient asserting = asserting();
        java.util.function.Function<String, IntrospectionAnswer> introspection = offered ->
                asserting.post("/dvid/introspect", IntrospectRequest.of(token, offered), IntrospectionAnswer.class);
        if (introspectsInOneCall()) {
            ProofCheck.Offer offer = proofCheck.offer(token);
            ValidateResponse validated = asserting.post(
                    Operation.VALIDATE_CALL,
                    "/dvid/validate",
                    ValidateRequest.introspecting(token, offer.digest()),
                    ValidateResponse.class);
            Verified<VerifiedDvid> verified = accepted(validated, received);
            Delegation delegation = verified.delegation();
            proofCheck.check(
                    token,
                    delegation,
                    services().requireIdpKeys(),
                    metrics(),
                    offer,
                    validated.introspection(),
                    introspection);
            return verified;
        }
        ValidateResponse validated = asserting.post(
                Operation.VALIDATE_CALL, "/dvid/validate", ValidateRequest.of(token), ValidateResponse.class);
        Verified<VerifiedDvid> verified = accepted(validated, received);
        proofCheck.introspect(token, verified.delegation(), services().requireIdpKeys(), metrics(), introspection);
        return verified;
    }

    /** A DVID is never extended: what goes to {@code next} is the DVID as received. */
    @Override
    public Outgoing forward(Verified<VerifiedDvid> verified, Role next) {
        return verified.unchanged();
    }

    /**
     * The asserting workload's step: mints with {@code minter} (its key), timed as {@code mint}, the
     * size recorded.
     */
    public Dvid mint(DvidMinter minter, DvidMintRequest request) {
        Dvid dvid = timeProduced(Operation.MINT, () -> minter.mint(request), d -> 1, d -> d.token()
                .length());
        return dvid;
    }

    /**
     * The asserting workload's {@code /dvid/validate}: {@code verifier} (its own keys) for {@code
     * audience} (the caller), timed as {@code validate}.
     */
    public VerifiedDvid validate(DvidVerifier verifier, String token, SpiffeId audience) {
        return timeValidate(Received.of(token), () -> verifier.verify(token, audience), d -> 1);
    }

    private Verified<VerifiedDvid> accepted(ValidateResponse validated, Received received) {
        VerifiedDvid dvid = timeValidate(received, () -> acceptValidation(validated), d -> 1);
        return new Verified<>(dvid, dvid.result(), received);
    }

    private DownstreamClient asserting() {
        return client(Role.ASSERTING_WL);
    }

    /** Rare (see DvidKeySet), so no operation of its own: http.client.requests counts it. */
    private String fetchKeys() {
        return asserting().get("/dvid/keys", String.class);
    }

    private DvidVerifier localVerifier() {
        DvidVerifier verifier = here;
        if (verifier == null) {
            synchronized (this) {
                verifier = here;
                if (verifier == null) {
                    Duration ttl = keysMemo.ttl() == null ? DvidKeySet.MAX_AGE : keysMemo.ttl();
                    verifier = verifier(
                            new DvidKeySet(
                                    this::fetchKeys,
                                    provider,
                                    settings.timeRules().clock(),
                                    ttl),
                            services().requireIdpKeys());
                    here = verifier;
                }
            }
        }
        return verifier;
    }
}
