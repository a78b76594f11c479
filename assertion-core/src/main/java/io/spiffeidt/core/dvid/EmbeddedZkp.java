package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.OAuthMessage;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.core.zkp.RsaSignatureProof;
import io.spiffeidt.core.zkp.ZkProof;
import io.spiffeidt.core.zkp.ZkProofCodec;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.util.Objects;

/**
 * The {@code zkp} claim of a DVID (docs/formats/dvid.md "Document"): the OAuth token's {@code
 * header.payload} and the proof, in the original's JSON text form ({@link ZkProofCodec}), that its
 * holder knows the IdP's RS256 signature on it. The token's signature itself is never included.
 *
 * <p>Thread safety: immutable.
 *
 * @param msg the OAuth token's {@code header.payload} (ASCII)
 * @param proof the proof JSON text
 */
public record EmbeddedZkp(String msg, String proof) {

    /** Requires both values. */
    public EmbeddedZkp {
        Objects.requireNonNull(msg, "msg");
        Objects.requireNonNull(proof, "proof");
    }

    /**
     * Makes the claim for an OAuth RS256 token: splits off the signature and proves knowledge of it
     * in {@code rounds} rounds.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a token that is not a compact JWS,
     *     {@link ErrorCode#BAD_SIGNATURE} when its signature does not verify with {@code idpKey}
     */
    public static EmbeddedZkp prove(String oauthToken, RSAPublicKey idpKey, int rounds, SecureRandom random) {
        return prove(oauthToken, idpKey, rounds, random, null);
    }

    /**
     * {@link #prove(String, RSAPublicKey, int, SecureRandom)} with the proof's RSA operations
     * computed by {@code provider} (null: the highest-priority provider).
     */
    public static EmbeddedZkp prove(
            String oauthToken, RSAPublicKey idpKey, int rounds, SecureRandom random, Provider provider) {
        String msg = OAuthMessage.msgOf(oauthToken);
        byte[] signature = OAuthMessage.signatureOf(oauthToken);
        ZkProof proof =
                RsaSignatureProof.prove(OAuthMessage.signingInput(msg), signature, idpKey, rounds, random, provider);
        return new EmbeddedZkp(msg, ZkProofCodec.toJson(proof));
    }

    /**
     * Verifies the claim for the DVID's {@code dpa} / {@code dpr} (docs/formats/dvid.md "Verification" step
     * 4): the OAuth payload in {@code msg} must have {@code iss == dpa} and {@code sub == dpr}, and
     * the proof must verify for {@code msg} under the IdP key {@code idpKeys} finds for {@code dpa}
     * and the OAuth header's {@code kid}.
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} when {@code msg} names another
     *     user, {@link ErrorCode#BAD_PROOF} when the proof does not verify, {@link
     *     ErrorCode#MALFORMED} for unreadable input, or what {@code idpKeys} throws
     */
    public void verify(String dpa, String dpr, IdpKeyResolver idpKeys, VerificationProfile profile, Limits limits) {
        verify(dpa, dpr, idpKeys, profile, limits, null);
    }

    /**
     * {@link #verify(String, String, IdpKeyResolver, VerificationProfile, Limits)} with the proof's
     * RSA operations computed by {@code provider} (null: the highest-priority provider).
     */
    public void verify(
            String dpa,
            String dpr,
            IdpKeyResolver idpKeys,
            VerificationProfile profile,
            Limits limits,
            Provider provider) {
        Objects.requireNonNull(idpKeys, "idpKeys");
        OAuthMessage oauth = OAuthMessage.parse(msg, limits);
        oauth.requireDelegation(dpa, dpr);
        RSAPublicKey key = idpKeys.resolve(oauth.issuer(), oauth.kid());
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "no IdP key for the OAuth token");
        }
        limits.checkEncodedSize(proof.length());
        ZkProof parsed = ZkProofCodec.parse(proof);
        RsaSignatureProof.verify(parsed, OAuthMessage.signingInput(msg), key, profile, limits, provider);
    }

    /** Names the sizes only. */
    @Override
    public String toString() {
        return "EmbeddedZkp[msg=" + msg.length() + " chars, proof=" + proof.length() + " chars]";
    }
}
