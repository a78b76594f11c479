package io.spiffeidt.core.dvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerifiedResult;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A verified DVID (docs/formats/dvid.md "Verification"): the common verified result plus what is specific
 * to DVIDs.
 *
 * <p>Thread safety: immutable.
 *
 * @param result mode {@link Mode#DVID}, one layer ({@code iss}, first {@code aud} or {@code null},
 *     {@code iat}, {@code exp}), delegation {@code dpa} / {@code dpr} asserted by {@code iss}
 * @param jti the introspection key: the {@code jti} claim, or, for an original DVID without one
 *     (original-compatible profile), the base64url SHA-256 of the whole token
 * @param subject {@code sub}: the workload that may act for the user
 * @param embeddedZkp the {@code zkp} claim, verified, when present
 */
public record VerifiedDvid(VerifiedResult result, String jti, SpiffeId subject, Optional<EmbeddedZkp> embeddedZkp) {

    /** Requires every value. */
    public VerifiedDvid {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(jti, "jti");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(embeddedZkp, "embeddedZkp");
    }

    /** The OAuth issuer the DVID acts for. */
    public String dpa() {
        return result.delegation().dpa();
    }

    /** The OAuth subject (the user) the DVID acts for. */
    public String dpr() {
        return result.delegation().dpr();
    }

    /** The asserting workload that issued the DVID. */
    public String issuer() {
        return result.outermost().issuer();
    }

    /** When the DVID expires. */
    public Instant expiresAt() {
        return result.outermost().expiresAt();
    }
}
