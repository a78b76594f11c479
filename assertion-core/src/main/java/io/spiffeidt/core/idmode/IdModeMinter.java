package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.internal.Claims;
import java.security.Provider;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Mints the root (delegation) layer of an ID-Mode token, as the asserting workload (docs/formats/id-mode.md
 * "Wire format": root claims {@code aud, dpa, dpr, exp, iat, iss}; docs/formats/common.md "Time"): signs
 * {@code base64url(P0)} with the workload's own X.509-SVID key (ECDSA P-256 / SHA-256, DER) and
 * returns the token {@code P0.S0} with the artifacts holding the workload's chain.
 *
 * <p>{@code exp} is the earliest of now + lifetime, the OAuth token's expiry and the signer's
 * certificate expiry.
 *
 * <p>Thread safety: immutable and safe for concurrent use (a fresh {@link java.security.Signature}
 * per call). Rotate credentials by making a new minter.
 */
public final class IdModeMinter {

    private final IdModeCredentials self;
    private final TimeRules timeRules;
    private final Limits limits;
    private final Provider provider;

    /**
     * A minter for {@code self}, with default limits.
     *
     * @param self the asserting workload's SVID key and chain
     * @param timeRules clock and lifetime
     * @param provider the JCA provider for ECDSA
     */
    public IdModeMinter(IdModeCredentials self, TimeRules timeRules, Provider provider) {
        this(self, timeRules, Limits.defaults(), provider);
    }

    /** A minter with explicit limits (claim length). */
    public IdModeMinter(IdModeCredentials self, TimeRules timeRules, Limits limits, Provider provider) {
        this.self = Objects.requireNonNull(self, "self");
        this.timeRules = Objects.requireNonNull(timeRules, "timeRules");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.provider = Objects.requireNonNull(provider, "provider");
    }

    /**
     * Mints a root layer for the user {@code dpr} of issuer {@code dpa}, addressed to {@code
     * audience} (the caller, normally the subject workload).
     *
     * @param audience the SPIFFE ID of the workload the token is handed to
     * @param dpa the OAuth token's {@code iss}
     * @param dpr the OAuth token's {@code sub}
     * @param notAfter the OAuth token's expiry, or {@code null} when unknown
     * @throws AssertionException {@link ErrorCode#MALFORMED} for an empty {@code dpa}/{@code dpr},
     *     {@link ErrorCode#LIMIT_EXCEEDED} for an over-long one, {@link ErrorCode#EXPIRED} when the
     *     OAuth token or the own certificate has already expired
     */
    public IdModePresentation mint(SpiffeId audience, String dpa, String dpr, Instant notAfter) {
        Objects.requireNonNull(audience, "audience");
        requireClaim("dpa", dpa);
        requireClaim("dpr", dpr);
        Instant now = timeRules.now();
        Instant exp = Claims.min(Claims.min(now.plus(timeRules.lifetime()), notAfter), self.notAfter());
        exp = Instant.ofEpochSecond(exp.getEpochSecond());
        if (!exp.isAfter(now)) {
            throw new AssertionException(ErrorCode.EXPIRED, 0, "OAuth token or own certificate already expired");
        }
        IdModeClaims claims = new IdModeClaims(self.spiffeId(), audience, now, exp, dpa, dpr);
        String token = IdModeSigning.root(claims, self.privateKey(), provider);
        return new IdModePresentation(token, IdModeArtifacts.of(List.of(self.chain())));
    }

    private void requireClaim(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "missing " + name);
        }
        limits.checkClaim(name, value);
    }

    /** The minting workload's SPIFFE ID. */
    public SpiffeId spiffeId() {
        return self.spiffeId();
    }
}
