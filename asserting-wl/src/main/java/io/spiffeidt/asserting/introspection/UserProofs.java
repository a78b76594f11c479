package io.spiffeidt.asserting.introspection;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.OAuthSummary;
import java.security.Provider;
import java.security.SecureRandom;
import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * The user's side of the asserting workload, the same in every mode that keeps proofs for
 * introspection (DVID, ID-Mode, Anon-Mode; docs/formats/common.md "Introspection"): the OAuth token
 * verified before a document is minted, its proof of knowledge made at mint or at the first
 * introspection ({@code zkp: at-mint | lazy}), and the introspection answer from the record kept
 * per document. The proof generation is timed here ({@code zkp_generation}).
 *
 * <p>Thread safety: thread safe.
 */
@Component
public class UserProofs {

    private final OAuthTokenVerifier oauth;
    private final OperationMetrics metrics;
    private final SecureRandom random;
    private final Provider rsaProvider;

    public UserProofs(OAuthTokenVerifier oauth, OperationMetrics metrics, SignatureProvider crypto) {
        this.oauth = oauth;
        this.metrics = metrics;
        this.random = crypto.secureRandom();
        this.rsaProvider = crypto.rsaProvider();
    }

    /**
     * A verified user and what the record of the document minted for them keeps: the proof (made at
     * mint) or the OAuth token to prove from later ({@code zkp: lazy}).
     */
    public record VerifiedUser(VerifiedOAuthToken oauth, OAuthProof proof, String pendingOAuthToken) {

        /** What the document is minted for: {@code caller}, and this user with the proof made at mint. */
        public Grant grantTo(Caller caller) {
            return Grant.of(oauth, caller).withProof(proof);
        }

        /**
         * Who owns the records kept for this user: the SHA-256 (base64url) of the token's issuer and
         * subject, so a store keeps neither in clear and one person is one owner in every replica.
         */
        public String owner() {
            return owner(oauth.issuer(), oauth.subject());
        }

        /** The owner of the records of the user {@code subject} at {@code issuer}. */
        public static String owner(String issuer, String subject) {
            try {
                byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                        .digest((issuer + "\n" + subject).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this JVM", e);
            }
        }

        /** The OAuth part of the mint response. */
        public OAuthSummary summary() {
            return new OAuthSummary(oauth.issuer(), oauth.subject(), oauth.expiresAt());
        }

        @Override
        public String toString() {
            return "VerifiedUser[" + oauth.subject() + ", proof=" + (proof != null) + "]";
        }
    }

    /**
     * Verifies the user's OAuth token and, under {@code zkp: at-mint}, proves knowledge of its
     * signature now.
     *
     * @throws AssertionException as the OAuth verification
     */
    public VerifiedUser verify(Mode mode, String accessToken, ZkpTiming zkp, int zkpRounds) {
        VerifiedOAuthToken verified = oauth.verify(mode, accessToken);
        OAuthProof proof = zkp == ZkpTiming.AT_MINT
                ? metrics.time(mode, Operation.ZKP_GENERATION, () -> prove(accessToken, verified, zkpRounds))
                : null;
        return new VerifiedUser(verified, proof, zkp == ZkpTiming.LAZY ? accessToken : null);
    }

    /**
     * The introspection answer from the record kept under {@code key}: the kept proof, or (the first
     * time under {@code zkp: lazy}) a proof made now from the kept OAuth token, which then replaces
     * it. A request that offers the digest of exactly the kept proof is answered {@code
     * {"unchanged":true}} (docs/operations.md "Verified proofs are remembered").
     *
     * @throws AssertionException {@link ErrorCode#NOT_FOUND} when there is no record (unknown,
     *     expired) or it keeps no proof ({@code zkp: off})
     */
    public IntrospectionAnswer answer(
            Mode mode, IntrospectionStore<IntrospectionEntry> store, String key, String proofDigest, int zkpRounds) {
        IntrospectionEntry entry = store.get(key)
                .orElseThrow(() -> new AssertionException(ErrorCode.NOT_FOUND, "no introspection record"));
        if (entry.introspection() != null) {
            return IntrospectionAnswer.of(entry.introspection(), proofDigest);
        }
        String pending = entry.pendingOAuthToken();
        if (pending == null) {
            throw new AssertionException(ErrorCode.NOT_FOUND, "no proof kept (zkp: off)");
        }
        VerifiedOAuthToken verified = oauth.verify(mode, pending);
        OAuthProof proof = metrics.time(mode, Operation.ZKP_GENERATION, () -> prove(pending, verified, zkpRounds));
        store.replace(key, new IntrospectionEntry(proof, null));
        return IntrospectionAnswer.of(proof, proofDigest);
    }

    /** This component for one mode's store and settings: what a mode's controller holds. */
    public Kept keeping(Mode mode, IntrospectionStore<IntrospectionEntry> store, ZkpTiming zkp, int zkpRounds) {
        return new Kept(this, mode, store, zkp, zkpRounds);
    }

    /**
     * One mode's users and introspection records: {@link UserProofs} bound to the mode's store and
     * settings.
     *
     * <p>Thread safety: thread safe.
     */
    public static final class Kept {

        private final UserProofs users;
        private final Mode mode;
        private final IntrospectionStore<IntrospectionEntry> store;
        private final ZkpTiming zkp;
        private final int zkpRounds;

        private Kept(
                UserProofs users,
                Mode mode,
                IntrospectionStore<IntrospectionEntry> store,
                ZkpTiming zkp,
                int zkpRounds) {
            this.users = users;
            this.mode = mode;
            this.store = store;
            this.zkp = zkp;
            this.zkpRounds = zkpRounds;
        }

        /** {@link UserProofs#verify} for this mode. */
        public VerifiedUser verify(String accessToken) {
            return users.verify(mode, accessToken, zkp, zkpRounds);
        }

        /**
         * Keeps the introspection record of a document minted for {@code user} until {@code
         * expiresAt}, a record of that user ({@link VerifiedUser#owner()}).
         */
        public void keep(String key, VerifiedUser user, Instant expiresAt) {
            store.put(key, user.owner(), new IntrospectionEntry(user.proof(), user.pendingOAuthToken()), expiresAt);
        }

        /** {@link UserProofs#answer} for this mode. */
        public IntrospectionAnswer answer(String key, String proofDigest) {
            return users.answer(mode, store, key, proofDigest, zkpRounds);
        }
    }

    private OAuthProof prove(String accessToken, VerifiedOAuthToken verified, int zkpRounds) {
        return OAuthProof.create(accessToken, verified.idpKey(), verified.kid(), zkpRounds, random, rsaProvider);
    }
}
