package io.spiffeidt.support.dvid;

import io.spiffeidt.core.CompactJws;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.IdpKeyResolver;
import io.spiffeidt.core.dvid.RemoteValidation;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.wire.ValidateResponse;
import java.security.Provider;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * One workload's part of DVID (docs/formats/dvid.md "Flows"): the settings pinned to the asserting
 * workload, acceptance of the asserting workload's remote validation, the check of an
 * introspection proof, and reading a received DVID for display. The asserting workload builds its
 * minter and verifier from {@link #mintingSettings}.
 *
 * <p>Thread safety: immutable.
 */
public class DvidHop {

    /** The memo of the asserting workload's key set: on, a tier verifies DVIDs itself. */
    public static final String KEYS_MEMO = "dvid-keys";

    private final ProofCheck proofCheck;
    private final MemoSettings keysMemo;

    private final WorkloadIdentity identity;
    private final Provider provider;
    private final DvidSettings settings;

    public DvidHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            Memos memos) {
        this.identity = identity;
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

    /** This workload's SPIFFE ID. */
    public SpiffeId self() {
        return identity.self();
    }

    /** The configured SPIFFE ID of a role. */
    public SpiffeId idOf(Role role) {
        return identity.idOf(role);
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
     * Whether a tier verifies DVIDs itself with the asserting workload's key set (the memo {@value
     * #KEYS_MEMO} on) instead of asking the asserting workload to validate each one.
     */
    public boolean verifiesLocally() {
        return keysMemo.remembers();
    }

    /**
     * The verifier of a tier that verifies DVIDs itself ({@link #verifiesLocally()}), holding the
     * asserting workload's key set that {@code fetchKeys} fetches for the memo's TTL ({@link
     * DvidKeySet}); {@code null} when DVIDs are validated remotely.
     *
     * @param fetchKeys returns the asserting workload's JWKS text ({@code GET /dvid/keys})
     * @param idpKeys the IdP's keys, for a DVID that embeds its proof
     */
    public DvidVerifier localVerifier(Supplier<String> fetchKeys, IdpKeyResolver idpKeys) {
        if (!verifiesLocally()) {
            return null;
        }
        Duration ttl = keysMemo.ttl() == null ? DvidKeySet.MAX_AGE : keysMemo.ttl();
        return verifier(new DvidKeySet(fetchKeys, provider, settings.timeRules().clock(), ttl), idpKeys);
    }

    /**
     * Whether the middle tier introspects a DVID in one call, offering the digest of the proof it
     * holds (the memo {@code oauth-proof} on), rather than in two.
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
}
