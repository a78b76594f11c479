package io.spiffeidt.support.oauth;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import java.security.Provider;
import java.util.Objects;
import java.util.function.Function;

/**
 * One verifier's check of introspection proofs, the same for every mode that has one (DVID at the
 * middle tier, ID-Mode and Anon-Mode at the target): the proof must show an IdP-signed OAuth token of
 * the verified document's {@code dpa} and {@code dpr}, under the IdP key this workload resolves
 * itself.
 *
 * <p>With a memo (given at construction; empty when {@code spiffeidt.memo.uses.oauth-proof} is off), a proof that
 * verified before is not verified again, and {@link #introspect} offers the digest of the proof held
 * for the document, so that the asserting workload answers "unchanged" instead of shipping it again
 * (docs/operations.md "Verified proofs are remembered"). Without one, every use fetches and verifies
 * the proof in full, as the original did.
 *
 * <p>Thread safety: thread safe.
 */
public final class ProofCheck {

    /** Tag values of the counter {@code spiffeidt.proof.memo}. */
    public static final String MISS = "miss";

    /** The memo had the proof that came with the answer. */
    public static final String HIT = "hit";

    /** The answer said "unchanged" and the held proof still verified: no proof shipped. */
    public static final String UNCHANGED = "unchanged";

    private final VerifiedProofs memo;
    private final OperationMetrics metrics;

    private final Mode mode;
    private final VerificationProfile profile;
    private final Limits limits;
    private final Provider rsaProvider;

    /**
     * @param mode the mode whose documents this checks (metric tag)
     * @param rsaProvider the provider of the proof's RSA operations (null: the highest-priority one)
     * @param memo the proofs verified before ({@link VerifiedProofs#none()}: every proof in full)
     * @param metrics what the introspection's call and the proof's check are timed into
     */
    public ProofCheck(
            Mode mode,
            VerificationProfile profile,
            Limits limits,
            Provider rsaProvider,
            VerifiedProofs memo,
            OperationMetrics metrics) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.profile = Objects.requireNonNull(profile, "profile");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.rsaProvider = rsaProvider;
        this.memo = Objects.requireNonNull(memo, "memo");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** Whether proofs are remembered (the memo {@code oauth-proof} holds anything). */
    public boolean remembers() {
        return memo.remembers();
    }

    /**
     * Verifies one proof (the memo answers for one that verified before with the same inputs).
     *
     * @return whether the memo answered
     */
    public boolean verify(OAuthProof proof, Delegation delegation, IdpKeyResolver idpKeys) {
        return proof.verify(delegation.dpa(), delegation.dpr(), idpKeys, profile, limits, rsaProvider, memo);
    }

    /**
     * Introspects {@code document} at the asserting workload and checks the proof, timing the call
     * ({@code introspect_call}) and the check ({@code zkp_verification}) apart and counting how the
     * memo answered.
     *
     * @param document the text sent for introspection (a root, or a whole DVID)
     * @param call sends the introspection request, with the offered digest (or {@code null})
     * @return {@link #MISS}, {@link #HIT} or {@link #UNCHANGED}
     * @throws AssertionException as the proof check, {@link ErrorCode#MALFORMED} for an answer
     *     without a proof that was not asked to be "unchanged", or what {@code call} throws
     */
    public String introspect(
            String document,
            Delegation delegation,
            IdpKeyResolver idpKeys,
            Function<String, IntrospectionAnswer> call) {
        Offer offer = offer(document);
        IntrospectionAnswer answer = metrics.time(mode, Operation.INTROSPECT_CALL, () -> call.apply(offer.digest()));
        return check(document, delegation, idpKeys, offer, answer, call);
    }

    /**
     * What to offer when introspecting {@code document}: the digest of the proof the memo holds for
     * it, or none. For a caller that sends the request itself (DVID's validation with introspection
     * in one call); {@link #check} takes the answer.
     */
    public Offer offer(String document) {
        VerifiedProofs current = memo;
        return new Offer(current, current.heldDigest(document));
    }

    /**
     * Checks the answer to an introspection that offered {@code offer} (as {@link #introspect} does
     * after its call): an "unchanged" answer against the held proof, any other answer's proof in full
     * or from the memo.
     *
     * @param refetch sends the introspection request again, with the offered digest (or {@code
     *     null}); used only when the held proof went between the offer and the check
     * @param answer the answer; {@code null} (an answer that lacks the introspection asked for) is
     *     {@link ErrorCode#MALFORMED}
     * @return {@link #MISS}, {@link #HIT} or {@link #UNCHANGED}
     * @throws AssertionException as {@link #introspect}
     */
    public String check(
            String document,
            Delegation delegation,
            IdpKeyResolver idpKeys,
            Offer offer,
            IntrospectionAnswer answer,
            Function<String, IntrospectionAnswer> refetch) {
        if (answer == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "no introspection answer, which was asked for");
        }
        VerifiedProofs current = offer.memo;
        if (answer.isUnchanged()) {
            if (offer.digest() == null) {
                throw new AssertionException(
                        ErrorCode.MALFORMED, "introspection answered unchanged, nothing was offered");
            }
            boolean held = metrics.time(
                    mode,
                    Operation.ZKP_VERIFICATION,
                    () -> OAuthProof.verifyHeld(
                            document, delegation.dpa(), delegation.dpr(), idpKeys, profile, limits, current));
            if (held) {
                metrics.countProofMemo(mode, UNCHANGED);
                return UNCHANGED;
            }
            // the held proof went between the offer and the check: fetch it in full
            answer = metrics.time(mode, Operation.INTROSPECT_CALL, () -> refetch.apply(null));
        }
        OAuthProof proof = answer.proof();
        boolean hit = metrics.time(
                mode,
                Operation.ZKP_VERIFICATION,
                () -> proof.verify(
                        delegation.dpa(), delegation.dpr(), idpKeys, profile, limits, rsaProvider, current, document));
        String result = hit ? HIT : MISS;
        metrics.countProofMemo(mode, result);
        return result;
    }

    /**
     * The digest offered for one introspection, with the memo it came from (the answer is checked
     * against that memo).
     */
    public static final class Offer {

        private final VerifiedProofs memo;
        private final String digest;

        private Offer(VerifiedProofs memo, String digest) {
            this.memo = memo;
            this.digest = digest;
        }

        /** The digest to send ({@code proofDigest}), or {@code null}: ask for the proof. */
        public String digest() {
            return digest;
        }
    }
}
