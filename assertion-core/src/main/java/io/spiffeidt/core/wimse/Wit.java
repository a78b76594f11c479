package io.spiffeidt.core.wimse;

import io.spiffeidt.core.SpiffeId;
import java.security.PublicKey;
import java.time.Instant;
import java.util.Objects;

/**
 * A Workload Identity Token, issued or verified (docs/formats/wimse.md "WIT"): the compact JWS and
 * what it says.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the compact JWS
 * @param keyId the {@code kid} of the issuer key it is signed under
 * @param subject the workload ({@code sub})
 * @param issuer the WIT issuer ({@code iss}), or {@code null} when the token has none
 * @param jti the token's identifier, or {@code null} when it has none (optional in the draft)
 * @param confirmationKey the workload's public key ({@code cnf.jwk}), EC P-256, for ES256
 * @param issuedAt {@code iat}, or {@code null} when the token has none
 * @param expiresAt {@code exp}
 */
public record Wit(
        String token,
        String keyId,
        SpiffeId subject,
        String issuer,
        String jti,
        PublicKey confirmationKey,
        Instant issuedAt,
        Instant expiresAt) {

    /** Requires the token, key id, subject, key and expiry. */
    public Wit {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(confirmationKey, "confirmationKey");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Names the workload and the expiry, never the token. */
    @Override
    public String toString() {
        return "Wit[sub=" + subject + ", iss=" + issuer + ", exp=" + expiresAt + "]";
    }
}
