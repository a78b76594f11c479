package io.spiffeidt.support.oauth;

import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Objects;

/**
 * A verified OAuth 2.0 access token (RS256 JWT), with what the documents need to embed or prove:
 * the signing input and signature as received, and the IdP key that verified them.
 *
 * <p>Thread safety: immutable.
 *
 * @param issuer {@code iss} (on the allow-list): becomes {@code dpa}
 * @param subject {@code sub}: becomes {@code dpr}
 * @param expiresAt {@code exp}
 * @param signingInput {@code header.payload} exactly as received
 * @param signature the RS256 signature bytes (copied in and out)
 * @param kid the {@code kid} header, or {@code null}
 * @param idpKey the IdP's RSA public key that verified the signature
 * @param idpKeyJwk the same key as a public JWK JSON object
 */
public record VerifiedOAuthToken(
        String issuer,
        String subject,
        Instant expiresAt,
        String signingInput,
        byte[] signature,
        String kid,
        RSAPublicKey idpKey,
        String idpKeyJwk) {

    /** Copies the signature. */
    public VerifiedOAuthToken {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(signingInput, "signingInput");
        signature = signature.clone();
        Objects.requireNonNull(idpKey, "idpKey");
        Objects.requireNonNull(idpKeyJwk, "idpKeyJwk");
    }

    /** A copy of the signature bytes. */
    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VerifiedOAuthToken t
                && issuer.equals(t.issuer)
                && subject.equals(t.subject)
                && expiresAt.equals(t.expiresAt)
                && signingInput.equals(t.signingInput)
                && java.util.Arrays.equals(signature, t.signature)
                && Objects.equals(kid, t.kid)
                && idpKey.equals(t.idpKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(issuer, subject, expiresAt, signingInput, java.util.Arrays.hashCode(signature), kid);
    }

    /** Names the issuer and subject only (never the token). */
    @Override
    public String toString() {
        return "VerifiedOAuthToken[issuer=" + issuer + ", subject=" + subject + ", expiresAt=" + expiresAt + "]";
    }
}
