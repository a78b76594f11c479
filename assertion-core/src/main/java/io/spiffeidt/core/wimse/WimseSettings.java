package io.spiffeidt.core.wimse;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Settings of the WIT issuer, the WPT signer and the verifier (docs/formats/wimse.md "Settings").
 *
 * <p>Thread safety: immutable.
 *
 * @param trustDomain the trust domain whose workloads the WITs name: a WIT's {@code sub} must be a
 *     SPIFFE ID in it (draft-ietf-wimse-workload-creds-02 §3, §9.1)
 * @param witIssuer the SPIFFE ID of the WIT issuer: the {@code iss} it writes, and the only {@code
 *     iss} accepted when a WIT carries one
 * @param limits claim limits ({@link Limits#maxClaimLength()})
 * @param timeRules clock and skew (its {@code lifetime} is not used: the two lifetimes below are)
 * @param witLifetime the lifetime of a minted WIT (default 1 h; the draft says "hours", §9.2.1)
 * @param wptLifetime the lifetime of a signed WPT, and the longest {@code exp - now} a verifier
 *     accepts (default 60 s; the draft says "minutes or seconds", draft-ietf-wimse-wpt-02 §2)
 * @param maxTokenLength the longest WIT or WPT accepted or minted, characters (default {@value
 *     #DEFAULT_MAX_TOKEN_LENGTH})
 */
public record WimseSettings(
        String trustDomain,
        SpiffeId witIssuer,
        Limits limits,
        TimeRules timeRules,
        Duration witLifetime,
        Duration wptLifetime,
        int maxTokenLength) {

    /** The longest token by default: a WIT or WPT of this project is under 1 KiB. */
    public static final int DEFAULT_MAX_TOKEN_LENGTH = 8 * 1024;

    /** The default WIT lifetime. */
    public static final Duration DEFAULT_WIT_LIFETIME = Duration.ofHours(1);

    /** The default WPT lifetime. */
    public static final Duration DEFAULT_WPT_LIFETIME = Duration.ofSeconds(60);

    /** Validates the values and lower-cases the trust domain. */
    public WimseSettings {
        Objects.requireNonNull(trustDomain, "trustDomain");
        Objects.requireNonNull(witIssuer, "witIssuer");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
        Objects.requireNonNull(witLifetime, "witLifetime");
        Objects.requireNonNull(wptLifetime, "wptLifetime");
        trustDomain = trustDomain.toLowerCase(Locale.ROOT);
        if (trustDomain.isEmpty()) {
            throw new IllegalArgumentException("trust domain must not be empty");
        }
        if (witLifetime.getSeconds() < 1 || wptLifetime.getSeconds() < 1) {
            throw new IllegalArgumentException("lifetimes must be at least one second");
        }
        if (wptLifetime.compareTo(witLifetime) > 0) {
            throw new IllegalArgumentException("a WPT must not outlive the WIT it proves");
        }
        if (maxTokenLength < 256 || maxTokenLength > limits.maxEncodedSize()) {
            throw new IllegalArgumentException("maxTokenLength must be between 256 and " + limits.maxEncodedSize());
        }
    }

    /**
     * The defaults: the issuer's own trust domain, default limits and time rules on {@code clock},
     * the default lifetimes and token length.
     */
    public static WimseSettings defaults(SpiffeId witIssuer, Clock clock) {
        return new WimseSettings(
                witIssuer.trustDomain(),
                witIssuer,
                Limits.defaults(),
                TimeRules.defaults(clock),
                DEFAULT_WIT_LIFETIME,
                DEFAULT_WPT_LIFETIME,
                DEFAULT_MAX_TOKEN_LENGTH);
    }

    /** A copy with other time rules. */
    public WimseSettings withTimeRules(TimeRules newTimeRules) {
        return new WimseSettings(
                trustDomain, witIssuer, limits, newTimeRules, witLifetime, wptLifetime, maxTokenLength);
    }

    /** A copy with another trust domain. */
    public WimseSettings withTrustDomain(String newTrustDomain) {
        return new WimseSettings(
                newTrustDomain, witIssuer, limits, timeRules, witLifetime, wptLifetime, maxTokenLength);
    }

    /** A copy with another longest token. */
    public WimseSettings withMaxTokenLength(int newMaxTokenLength) {
        return new WimseSettings(
                trustDomain, witIssuer, limits, timeRules, witLifetime, wptLifetime, newMaxTokenLength);
    }
}
