package io.spiffeidt.core.dvid;

import io.spiffeidt.core.SpiffeId;
import java.time.Instant;
import java.util.Objects;

/**
 * A minted DVID (docs/formats/dvid.md "Document") and what it says.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the compact JWS
 * @param jti its {@code jti} (the introspection key), or {@code null} for the original shape
 * @param subject {@code sub}: the workload that may act for the user
 * @param dpa the OAuth issuer
 * @param dpr the OAuth subject
 * @param issuedAt {@code iat}
 * @param expiresAt {@code exp}
 */
public record Dvid(
        String token, String jti, SpiffeId subject, String dpa, String dpr, Instant issuedAt, Instant expiresAt) {

    /** Requires every value except {@code jti}. */
    public Dvid {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(dpa, "dpa");
        Objects.requireNonNull(dpr, "dpr");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Everything but the token, which is never logged. */
    @Override
    public String toString() {
        return "Dvid[jti=" + jti + ", subject=" + subject + ", dpa=" + dpa + ", dpr=" + dpr + ", issuedAt=" + issuedAt
                + ", expiresAt=" + expiresAt + "]";
    }
}
