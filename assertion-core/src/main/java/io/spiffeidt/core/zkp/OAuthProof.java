package io.spiffeidt.core.zkp;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.Jwks;
import io.spiffeidt.core.internal.OAuthMessage;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Objects;

/**
 * The introspection answer of every mode (docs/formats/dvid.md "Introspection"; the same body answers
 * {@code POST /id-mode/introspect}, docs/formats/id-mode.md, and {@code POST /anon-mode/introspect},
 * docs/formats/anon-mode.md): the OAuth token's {@code header.payload}, the proof that its holder knows the
 * IdP's signature on it (docs/formats/dvid.md "The zero-knowledge proof"), and the IdP's public key as a
 * JWK. The OAuth token itself (its signature) is never part of it. The component names are the JSON
 * field names of the wire body {@code {"msg","zkp","idpKey"}}.
 *
 * <p>Thread safety: immutable.
 *
 * @param msg the OAuth token's {@code header.payload} (ASCII)
 * @param zkp the proof JSON text ({@link ZkProofCodec})
 * @param idpKey the IdP's RSA public key as a JWK JSON text (with the IdP's {@code kid})
 */
public record OAuthProof(String msg, String zkp, String idpKey) {

    /** Requires every value. */
    public OAuthProof {
        Objects.requireNonNull(msg, "msg");
        Objects.requireNonNull(zkp, "zkp");
        Objects.requireNonNull(idpKey, "idpKey");
    }

    /**
     * Makes the introspection record for an OAuth RS256 token (done by the asserting workload at mint
     * or lazily at the first introspection): splits off the signature and proves knowledge of it in
     * {@code rounds} rounds.
     *
     * @param oauthToken the user's OAuth token (verified before)
     * @param idpKey the IdP key that signed it
     * @param idpKid the IdP key's {@code kid}
     * @param rounds the proof's rounds
     * @param random the prover's randomness
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#BAD_SIGNATURE}
     */
    public static OAuthProof create(
            String oauthToken, RSAPublicKey idpKey, String idpKid, int rounds, SecureRandom random) {
        return create(oauthToken, idpKey, idpKid, rounds, random, null);
    }

    /**
     * {@link #create(String, RSAPublicKey, String, int, SecureRandom)} with the proof's RSA
     * operations computed by {@code provider} (null: the highest-priority provider).
     */
    public static OAuthProof create(
            String oauthToken, RSAPublicKey idpKey, String idpKid, int rounds, SecureRandom random, Provider provider) {
        String msg = OAuthMessage.msgOf(oauthToken);
        byte[] signature = OAuthMessage.signatureOf(oauthToken);
        ZkProof proof =
                RsaSignatureProof.prove(OAuthMessage.signingInput(msg), signature, idpKey, rounds, random, provider);
        return new OAuthProof(msg, ZkProofCodec.toJson(proof), Jwks.jwk(idpKey, idpKid));
    }

    /**
     * Checks this answer against the delegation of a verified document (the caller's step after
     * verifying it): the OAuth payload in {@code msg} must have {@code iss == dpa} and {@code sub ==
     * dpr}, and the proof must verify for {@code msg} under the IdP key that {@code idpKeys} resolves
     * for {@code dpa} and the OAuth header's {@code kid} (spec/dvid.md "The zero-knowledge proof":
     * the public input comes from the IdP's JWKS). The {@link #idpKey()} the answer carries is never
     * used: whoever writes the answer could carry a key of its own with the IdP's {@code kid}.
     *
     * @param dpa the verified document's {@code dpa} (the OAuth issuer)
     * @param dpr the verified document's {@code dpr} (the user)
     * @param idpKeys the verifier's own view of the allow-listed issuers' keys
     * @param profile strict or original-compatible (the proof's minimum rounds)
     * @param limits the size and round limits
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} when {@code msg} names another
     *     user, {@link ErrorCode#BAD_PROOF} when the proof does not verify, {@link ErrorCode#MALFORMED}
     *     / {@link ErrorCode#UNSUPPORTED} for unreadable input, or what {@code idpKeys} throws
     *     ({@link ErrorCode#UNKNOWN_ISSUER}, {@link ErrorCode#UNTRUSTED_KEY}, ...)
     */
    public void verify(String dpa, String dpr, IdpKeyResolver idpKeys, VerificationProfile profile, Limits limits) {
        verify(dpa, dpr, idpKeys, profile, limits, null);
    }

    /**
     * As {@link #verify(String, String, IdpKeyResolver, VerificationProfile, Limits)}, with the proof's
     * RSA public-key operations computed by {@code provider} (null: the highest-priority provider).
     */
    public void verify(
            String dpa,
            String dpr,
            IdpKeyResolver idpKeys,
            VerificationProfile profile,
            Limits limits,
            Provider provider) {
        verify(dpa, dpr, idpKeys, profile, limits, provider, VerifiedProofs.none());
    }

    /**
     * As {@link #verify(String, String, IdpKeyResolver, VerificationProfile, Limits, Provider)}, but
     * a proof that verified before with exactly the same inputs (texts, delegation, resolved IdP key,
     * profile) within the memo's time is not verified again. The delegation, the key resolution and
     * the size limits are checked every time.
     *
     * @return whether the memo answered (false: verified in full now)
     */
    public boolean verify(
            String dpa,
            String dpr,
            IdpKeyResolver idpKeys,
            VerificationProfile profile,
            Limits limits,
            Provider provider,
            VerifiedProofs memo) {
        return verify(dpa, dpr, idpKeys, profile, limits, provider, memo, null);
    }

    /**
     * As {@link #verify(String, String, IdpKeyResolver, VerificationProfile, Limits, Provider,
     * VerifiedProofs)}, and, when it verifies, the memo holds this proof for {@code document} (the
     * text the verifier introspected), so that the next introspection of that document can offer
     * {@link VerifiedProofs#heldDigest} instead of fetching the proof again.
     *
     * @param document the introspected text, or {@code null} to hold nothing
     * @return whether the memo answered (false: verified in full now)
     */
    public boolean verify(
            String dpa,
            String dpr,
            IdpKeyResolver idpKeys,
            VerificationProfile profile,
            Limits limits,
            Provider provider,
            VerifiedProofs memo,
            String document) {
        Objects.requireNonNull(memo, "memo");
        RSAPublicKey key = checkDelegationAndResolveKey(msg, dpa, dpr, idpKeys, profile, limits);
        limits.checkEncodedSize(zkp.length());
        // the digest of an 85 KB proof is only worth its time when there is a memo to ask
        byte[] zkpSha256 = !memo.remembers() ? null : VerifiedProofs.digest(VerifiedProofs.utf8(zkp));
        String memoKey = zkpSha256 == null ? null : VerifiedProofs.key(msg, zkpSha256, dpa, dpr, key, profile);
        boolean hit = memoKey != null && memo.verified(memoKey);
        if (!hit) {
            ZkProof parsed = ZkProofCodec.parse(zkp);
            RsaSignatureProof.verify(parsed, OAuthMessage.signingInput(msg), key, profile, limits, provider);
        }
        if (memoKey != null) {
            if (!hit) {
                memo.remember(memoKey);
            }
            if (document != null) {
                memo.hold(document, digest(zkpSha256), msg, zkpSha256);
            }
        }
        return hit;
    }

    /**
     * Checks the proof {@code memo} holds for {@code document}, for an introspection answered
     * "unchanged" (the asserting workload still keeps the proof whose digest the verifier offered):
     * the held {@code msg} must name {@code dpa} and {@code dpr}, its IdP key must still resolve, and
     * a proof with exactly these inputs must have verified within the memo's time. Nothing is taken
     * from the answer.
     *
     * @return true when all of that holds; false when nothing usable is held (expired, pushed out, or
     *     the key resolved differently): the caller then fetches and verifies the proof in full
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} when the held proof names
     *     another user, or what {@code idpKeys} throws
     */
    public static boolean verifyHeld(
            String document,
            String dpa,
            String dpr,
            IdpKeyResolver idpKeys,
            VerificationProfile profile,
            Limits limits,
            VerifiedProofs memo) {
        Objects.requireNonNull(document, "document");
        VerifiedProofs.Held held = memo.held(document);
        if (held == null) {
            return false;
        }
        RSAPublicKey key = checkDelegationAndResolveKey(held.msg(), dpa, dpr, idpKeys, profile, limits);
        return memo.verified(VerifiedProofs.key(held.msg(), held.zkpSha256(), dpa, dpr, key, profile));
    }

    /**
     * The digest of this answer: base64url (no padding) of the SHA-256 of {@code msg}, {@code zkp}
     * and {@code idpKey}, each length-prefixed. A verifier offers it to the asserting workload's
     * introspection, which answers "unchanged" when the proof it keeps has the same digest.
     */
    public String digest() {
        return digest(VerifiedProofs.digest(VerifiedProofs.utf8(zkp)));
    }

    private String digest(byte[] zkpSha256) {
        byte[] d = VerifiedProofs.digest(VerifiedProofs.utf8(msg), zkpSha256, VerifiedProofs.utf8(idpKey));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(d);
    }

    /**
     * What {@link #verify} and {@link #verifyHeld} both check first: the rules are given, {@code msg}
     * names {@code dpa}/{@code dpr}, and {@code idpKeys} resolves the IdP key of its {@code kid}.
     */
    private static RSAPublicKey checkDelegationAndResolveKey(
            String msg, String dpa, String dpr, IdpKeyResolver idpKeys, VerificationProfile profile, Limits limits) {
        Objects.requireNonNull(idpKeys, "idpKeys");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        OAuthMessage oauth = OAuthMessage.parse(msg, limits);
        oauth.requireDelegation(dpa, dpr);
        RSAPublicKey key = idpKeys.resolve(oauth.issuer(), oauth.kid());
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "no IdP key for the OAuth token");
        }
        return key;
    }

    /** Names the sizes only. */
    @Override
    public String toString() {
        return "OAuthProof[msg=" + msg.length() + " chars, zkp=" + zkp.length() + " chars]";
    }
}
