package io.spiffeidt.support.dvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.dvid.Dvid;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidMintRequest;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.EmbeddedZkp;
import io.spiffeidt.core.dvid.RemoteValidation;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClient;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Introspection;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import java.security.Provider;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One workload's part of DVID (docs/formats/dvid.md "Flows"): the settings pinned to the asserting
 * workload, acceptance of the asserting workload's remote validation, the check of an
 * introspection proof, and reading a received DVID for display. The asserting workload builds its
 * minter and verifier from {@link #mintingSettings}.
 *
 * <p>The {@link io.spiffeidt.support.hop.Hop} verbs: {@link #verify(Received, Caller)} (at the
 * target: here with the asserting workload's keys when {@link #validatesLocally()}, else at the
 * asserting workload's {@code /dvid/validate}, whose answer is {@link #consult}ed first; at the
 * middle tier: always there), {@link #introspection()} (the middle tier's validation and
 * introspection, one call when {@link #introspectsInOneCall()}), {@link #forward(Verified, Role)}
 * (the DVID unchanged), at the subject workload {@link #accept} and at the asserting workload
 * {@link #minting()} (mint and validate).
 *
 * <p>Thread safety: thread safe.
 */
public class DvidHop extends AbstractHop<VerifiedDvid, ValidateResponse> {

    /** The memo of the asserting workload's key set: on, a tier verifies DVIDs itself. */
    public static final String KEYS_MEMO = "dvid-keys";

    private final ProofCheck proofCheck;
    private final MemoSettings keysMemo;

    private final Provider provider;
    private final DvidSettings settings;
    private final Optional<Introspection<VerifiedDvid>> introspection = Optional.of(new Introspected());
    private final Optional<DvidIssuer> minting;

    /** The verifier of {@link #validatesLocally()}, built at the first use. */
    private volatile DvidVerifier here;

    /** A hop that mints nothing: every workload's but the asserting workload's. */
    public DvidHop(HopParts parts) {
        this(parts, null, null, false);
    }

    /**
     * The asserting workload's hop: {@link #DvidHop(HopParts)} that also mints and validates DVIDs
     * ({@link #minting()}) with {@code minter} and {@code own} (its key; settings of {@link
     * #mintingSettings}).
     *
     * @param minter the asserting workload's minter, or {@code null} for a hop that mints nothing
     * @param own the verifier of the DVIDs it issued, with its own key ({@code null} with {@code
     *     minter})
     * @param embedZkp whether a DVID embeds the user's proof when the grant carries one
     *     ({@code spiffeidt.dvid.embed-zkp})
     */
    public DvidHop(HopParts parts, DvidMinter minter, DvidVerifier own, boolean embedZkp) {
        super(Mode.DVID, parts, Forwarding.RELAYS);
        this.keysMemo = parts.memos().settings(KEYS_MEMO);
        this.provider = parts.provider().provider();
        this.settings = new DvidSettings(
                parts.identity().idOf(Role.ASSERTING_WL),
                parts.identity().self().trustDomain(),
                DvidAlgorithm.RS256,
                parts.profile(),
                parts.limits(),
                parts.timeRules(),
                DvidSettings.DEFAULT_ZKP_ROUNDS);
        this.proofCheck = new ProofCheck(
                Mode.DVID,
                settings.profile(),
                settings.limits(),
                this.provider,
                parts.verifiedProofs(),
                parts.services().metrics());
        this.minting = minter == null ? Optional.empty() : Optional.of(new Issuer(minter, own, embedZkp));
    }

    /**
     * Whether {@link #verify(Received, Caller)} verifies here, with the asserting workload's keys
     * this workload holds ({@link DvidKeySet}), instead of asking the asserting workload: at the
     * target, while the memo {@value #KEYS_MEMO} is on (docs/formats/dvid.md §6, "Where a DVID is
     * verified"). With it off every DVID is validated remotely, as in the original.
     */
    boolean validatesLocally() {
        return verifiesLocally() && self().equals(idOf(Role.TARGET_WL));
    }

    /**
     * Whether the memo {@value #KEYS_MEMO} of the asserting workload's key set is on: then the target
     * verifies DVIDs itself ({@link #validatesLocally()}) instead of asking the asserting workload.
     */
    public boolean verifiesLocally() {
        return keysMemo.remembers();
    }

    /**
     * The settings the asserting workload of {@code parts} mints and verifies with: its own SPIFFE ID
     * as issuer, {@code algorithm} (that of its signing key), documents living {@code lifetime}.
     */
    public static DvidSettings mintingSettings(
            HopParts parts, DvidAlgorithm algorithm, Duration lifetime, int zkpRounds) {
        SpiffeId self = parts.identity().self();
        return new DvidSettings(
                self,
                self.trustDomain(),
                algorithm,
                parts.profile(),
                parts.limits(),
                parts.timeRules().withLifetime(lifetime),
                zkpRounds);
    }

    /**
     * Whether the middle tier introspects a DVID in one call, offering the digest of the proof it
     * holds (the memo {@code oauth-proof} on), rather than in two, as the original did.
     */
    public boolean introspectsInOneCall() {
        return proofCheck.remembers();
    }

    /**
     * The subject workload's reading of the DVID the asserting workload answered, to show it and to
     * know when to mint again: parsed, not verified (the middle tier has it validated).
     */
    public CompactJws accept(Received answer) {
        return CompactJws.parse(answer.token());
    }

    /**
     * The subject workload's step for a DVID it keeps: it goes to {@code next} as minted (the
     * subject workload neither verifies nor extends it); nothing is timed.
     */
    public Outgoing forward(String kept, Role next) {
        return new Outgoing(kept, null, 1);
    }

    /**
     * Asks the asserting workload's {@code /dvid/validate} ({@code validate_call}) unless this
     * workload {@link #validatesLocally()}.
     */
    @Override
    protected ValidateResponse consult(Received received, Caller caller) {
        if (validatesLocally()) {
            return null;
        }
        return asserting()
                .post(
                        Operation.VALIDATE_CALL,
                        "/dvid/validate",
                        ValidateRequest.of(received.token()),
                        ValidateResponse.class);
    }

    /**
     * Verifies a DVID {@code caller} forwarded, for this workload: here when {@link
     * #validatesLocally()}, else the asserting workload's {@code answer} is accepted; either way its
     * {@code sub} must be the subject workload. The caller is not bound: a DVID names its subject, not
     * its bearer.
     */
    @Override
    protected Verified<VerifiedDvid> check(Received received, Caller caller, ValidateResponse answer) {
        VerifiedDvid dvid = answer == null
                ? RemoteValidation.accept(
                        localVerifier().verify(received.token(), identity.self()), identity.idOf(Role.SUBJECT_WL))
                : RemoteValidation.accept(
                        answer.result(), answer.jti(), answer.subject(), identity.idOf(Role.SUBJECT_WL));
        return new Verified<>(dvid, dvid.result(), received);
    }

    /**
     * The middle tier's verification: the asserting workload's validation, then its introspection of
     * the DVID and the proof check against the DVID's {@code dpa}/{@code dpr} ({@link ProofCheck},
     * under the IdP key this workload resolves itself). One call when {@link
     * #introspectsInOneCall()} (the proof held for the DVID offered by digest), else two.
     */
    @Override
    public Optional<Introspection<VerifiedDvid>> introspection() {
        return introspection;
    }

    /** A DVID is never extended: what goes to {@code next} is the DVID as received. */
    @Override
    protected Outgoing onward(Verified<VerifiedDvid> verified, Role next) {
        return verified.unchanged();
    }

    /**
     * The asserting workload's steps, where this hop was given its minter: a DVID whose {@code sub}
     * is the grant's audience, with the user's proof embedded where that is on and the grant carries
     * one (its introspection record is found by its {@code jti}), and the validation of a DVID it
     * issued.
     */
    @Override
    public Optional<DvidIssuer> minting() {
        return minting;
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

    /** A verifier of DVIDs with this hop's settings (the pinned asserting workload) and provider. */
    DvidVerifier verifier(DvidKeyResolver keys, IdpKeyResolver idpKeys) {
        return new DvidVerifier(settings, provider, keys, idpKeys);
    }

    /** Validation and introspection, in one call or two. */
    private final class Introspected implements Introspection<VerifiedDvid> {

        @Override
        public Verified<VerifiedDvid> verify(Received received, Caller caller) {
            String token = received.token();
            DownstreamClient asserting = asserting();
            Function<String, IntrospectionAnswer> introspect = offered ->
                    asserting.post("/dvid/introspect", IntrospectRequest.of(token, offered), IntrospectionAnswer.class);
            IdpKeyResolver idpKeys = services().requireIdpKeys();
            if (introspectsInOneCall()) {
                ProofCheck.Offer offer = proofCheck.offer(token);
                ValidateResponse validated = asserting.post(
                        Operation.VALIDATE_CALL,
                        "/dvid/validate",
                        ValidateRequest.introspecting(token, offer.digest()),
                        ValidateResponse.class);
                Verified<VerifiedDvid> verified = checked(received, caller, validated);
                proofCheck.check(token, verified.delegation(), idpKeys, offer, validated.introspection(), introspect);
                return verified;
            }
            Verified<VerifiedDvid> verified = DvidHop.this.verify(received, caller);
            proofCheck.introspect(token, verified.delegation(), idpKeys, introspect);
            return verified;
        }
    }

    /** The asserting workload's mint and validation with its key. */
    private final class Issuer extends MintingStep<Dvid> implements DvidIssuer {

        private final DvidMinter minter;
        private final Validation validation;
        private final boolean embedZkp;

        Issuer(DvidMinter minter, DvidVerifier own, boolean embedZkp) {
            this.minter = minter;
            this.validation = new Validation(Objects.requireNonNull(own, "own"));
            this.embedZkp = embedZkp;
        }

        @Override
        public VerifiedDvid validate(Received received, Caller caller) {
            return validation.run(received, caller);
        }

        @Override
        protected Minted<Dvid> make(Grant grant) {
            DvidMintRequest request = DvidMintRequest.of(grant.audience(), grant.dpa(), grant.dpr(), grant.notAfter());
            if (embedZkp && grant.proof() != null) {
                request = request.withZkp(
                        new EmbeddedZkp(grant.proof().msg(), grant.proof().zkp()));
            }
            Dvid dvid = minter.mint(request);
            return Minted.root(dvid, dvid.token(), dvid.jti(), dvid.expiresAt());
        }
    }

    /** The asserting workload's validation with its own keys, for the caller as audience. */
    private final class Validation extends Check<VerifiedDvid> {

        private final DvidVerifier verifier;

        Validation(DvidVerifier verifier) {
            this.verifier = verifier;
        }

        @Override
        protected VerifiedDvid apply(Received received, Caller caller) {
            return verifier.verify(received.token(), caller.id());
        }
    }
}
