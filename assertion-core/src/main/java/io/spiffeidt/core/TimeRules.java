package io.spiffeidt.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The time rules of docs/formats/common.md "Time": an injected clock, the clock skew, the default
 * lifetime of a minted document, and the original-compatible maximum age.
 *
 * <p>Thread safety: immutable.
 *
 * @param clock where "now" comes from; nothing in the core calls {@code Instant.now()}
 * @param skew allowed clock skew (default 30 s)
 * @param lifetime default lifetime of a minted document (default 120 s)
 * @param originalMaxAge the lifetime assumed for an original document without {@code exp}
 *     (default 300 s)
 */
public record TimeRules(Clock clock, Duration skew, Duration lifetime, Duration originalMaxAge) {

    /** Validates the values. */
    public TimeRules {
        Objects.requireNonNull(clock, "clock");
        if (skew.isNegative() || lifetime.isNegative() || lifetime.isZero() || originalMaxAge.isNegative()) {
            throw new IllegalArgumentException("durations must be positive");
        }
    }

    /** The defaults of docs/formats/common.md with the given clock. */
    public static TimeRules defaults(Clock clock) {
        return new TimeRules(clock, Duration.ofSeconds(30), Duration.ofSeconds(120), Duration.ofSeconds(300));
    }

    /** The current time, truncated to whole seconds (JWT NumericDate). */
    public Instant now() {
        return Instant.ofEpochSecond(clock.instant().getEpochSecond());
    }

    /**
     * Checks a validity window against now with skew.
     *
     * @param layer layer index for the error, or -1
     * @param issuedAt {@code iat}, or {@code null} when absent
     * @param notBefore {@code nbf}, or {@code null} when absent
     * @param expiresAt {@code exp}; must not be {@code null}
     * @throws AssertionException {@link ErrorCode#EXPIRED} or {@link ErrorCode#NOT_YET_VALID}
     */
    public void check(int layer, Instant issuedAt, Instant notBefore, Instant expiresAt) {
        Instant now = clock.instant();
        if (expiresAt == null) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing exp");
        }
        if (now.isAfter(expiresAt.plus(skew))) {
            throw new AssertionException(ErrorCode.EXPIRED, layer, "document expired");
        }
        if (issuedAt != null && issuedAt.isAfter(now.plus(skew))) {
            throw new AssertionException(ErrorCode.NOT_YET_VALID, layer, "issued in the future");
        }
        if (notBefore != null && notBefore.isAfter(now.plus(skew))) {
            throw new AssertionException(ErrorCode.NOT_YET_VALID, layer, "not yet valid");
        }
    }

    /** A copy whose minted documents live {@code newLifetime}. */
    public TimeRules withLifetime(Duration newLifetime) {
        return new TimeRules(clock, skew, newLifetime, originalMaxAge);
    }

    /**
     * The rules of a layer that carries a delegation (docs/formats/common.md "Time"): it lives
     * {@link #lifetime()} at most, and never past {@code notAfter}, the expiry of the OAuth token the
     * delegation comes from.
     *
     * @throws AssertionException {@link ErrorCode#EXPIRED} when {@code notAfter} leaves no whole
     *     second
     */
    public TimeRules forDelegationUntil(Instant notAfter) {
        Objects.requireNonNull(notAfter, "notAfter");
        Duration left = Duration.between(now(), notAfter);
        if (left.getSeconds() <= 0) {
            throw new AssertionException(ErrorCode.EXPIRED, "the OAuth token has no lifetime left");
        }
        return left.compareTo(lifetime) < 0 ? withLifetime(left) : this;
    }
}
