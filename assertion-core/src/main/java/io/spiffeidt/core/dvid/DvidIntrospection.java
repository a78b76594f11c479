package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.util.Objects;

/**
 * The answer of {@code POST /dvid/introspect} (spec/dvid.md "Introspection"): the OAuth token's
 * {@code header.payload}, the proof that its holder knows the IdP's signature on it, and the IdP's
 * public key as a JWK. The OAuth token itself (its signature) is never part of it.
 *
 * @param msg the OAuth token's {@code header.payload} (ASCII)
 * @param zkp the proof JSON text ({@link ZkProofCodec})
 * @param idpKey the IdP's RSA public key as a JWK JSON text (with the IdP's {@code kid})
 *     <p>Thread safety: immutable.
 */
public record DvidIntrospection(String msg, String zkp, String idpKey) {

    /** Requires every value. */
    public DvidIntrospection {
        Objects.requireNonNull(msg, "msg");
        Objects.requireNonNull(zkp, "zkp");
        Objects.requireNonNull(idpKey, "idpKey");
    }

    /**
     * Makes the introspection record for an OAuth RS256 token (done by the asserting workload at mint
     * or lazily at the first introspection).
     *
     * @param oauthToken the user's OAuth token (verified before)
     * @param idpKey the IdP key that signed it
     * @param idpKid the IdP key's {@code kid}
     * @param rounds the proof's rounds
     * @param random the prover's randomness
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#BAD_SIGNATURE}
     */
    public static DvidIntrospection create(
            String oauthToken, RSAPublicKey idpKey, String idpKid, int rounds, SecureRandom random) {
        EmbeddedZkp proof = EmbeddedZkp.prove(oauthToken, idpKey, rounds, random);
        return new DvidIntrospection(proof.msg(), proof.proof(), DvidKeys.jwk(idpKey, idpKid));
    }

    /**
     * Checks this answer against a verified DVID (the m-tier's step after {@code /dvid/validate}):
     * the OAuth payload in {@code msg} must have {@code iss == dpa} and {@code sub == dpr}, a {@code
     * kid} in the OAuth header must be the JWK's, and the proof must verify for {@code msg} under the
     * JWK's key with the settings' profile and limits.
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} when {@code msg} names another
     *     user, {@link ErrorCode#UNTRUSTED_KEY} when the key ids differ, {@link ErrorCode#BAD_PROOF}
     *     when the proof does not verify, {@link ErrorCode#MALFORMED} / {@link ErrorCode#UNSUPPORTED}
     *     for unreadable input or a non-RSA key
     */
    public void verify(VerifiedDvid dvid, DvidSettings settings, Provider provider) {
        Objects.requireNonNull(dvid, "dvid");
        Objects.requireNonNull(settings, "settings");
        String jwkKid = DvidKeys.kidOf(idpKey);
        PublicKey key = DvidKeys.parseJwk(idpKey, provider);
        if (!(key instanceof RSAPublicKey rsa)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "the IdP key is not an RSA key");
        }
        IdpKeyResolver fromAnswer = (issuer, kid) -> {
            if (!kid.isEmpty() && !jwkKid.isEmpty() && !kid.equals(jwkKid)) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "the IdP key id is not the OAuth token's");
            }
            return rsa;
        };
        new EmbeddedZkp(msg, zkp).verify(dvid.dpa(), dvid.dpr(), fromAnswer, settings.profile(), settings.limits());
    }

    /** Names the sizes only. */
    @Override
    public String toString() {
        return "DvidIntrospection[msg=" + msg.length() + " chars, zkp=" + zkp.length() + " chars]";
    }
}
