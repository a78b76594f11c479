package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import java.time.Clock;
import java.util.Objects;

/**
 * The settings of Anon-Mode minting, extension and verification (docs/formats/anon-mode.md, docs/formats/common.md
 * "Verification profiles", "Limits", "Time").
 *
 * <p>Thread safety: immutable.
 *
 * @param subjectWorkload the SPIFFE ID the root layer's {@code aud} must name (the subject workload,
 *     the caller of the asserting workload)
 * @param profile {@link VerificationProfile#STRICT} (default) or original-compatible; the latter
 *     accepts a missing {@code exp} (replaced by {@code iat} + max-age), an {@code iid} claim, and a
 *     hop {@code iss} that differs from the recomputed key (the original ignored it)
 * @param limits size, depth and claim limits, checked before any expensive work
 * @param timeRules clock, skew, lifetime of a new layer, original-compatible maximum age
 * @param includeIid whether an extension writes the {@code iid} claim (the extender's own SPIFFE
 *     ID), as the original did. Off by default: the point of the mode is anonymity, and the strict
 *     profile rejects tokens that carry {@code iid}
 */
public record AnonModeSettings(
        SpiffeId subjectWorkload, VerificationProfile profile, Limits limits, TimeRules timeRules, boolean includeIid) {

    /** Requires every value. */
    public AnonModeSettings {
        Objects.requireNonNull(subjectWorkload, "subjectWorkload");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
    }

    /** Strict settings, default limits and time rules on {@code clock}, no {@code iid}. */
    public static AnonModeSettings strict(SpiffeId subjectWorkload, Clock clock) {
        return new AnonModeSettings(
                subjectWorkload, VerificationProfile.STRICT, Limits.defaults(), TimeRules.defaults(clock), false);
    }

    /** A copy with another profile. */
    public AnonModeSettings withProfile(VerificationProfile newProfile) {
        return new AnonModeSettings(subjectWorkload, newProfile, limits, timeRules, includeIid);
    }

    /** A copy with other limits. */
    public AnonModeSettings withLimits(Limits newLimits) {
        return new AnonModeSettings(subjectWorkload, profile, newLimits, timeRules, includeIid);
    }

    /** A copy with other time rules. */
    public AnonModeSettings withTimeRules(TimeRules newTimeRules) {
        return new AnonModeSettings(subjectWorkload, profile, limits, newTimeRules, includeIid);
    }

    /** A copy that does (or does not) write {@code iid} when extending. */
    public AnonModeSettings withIid(boolean newIncludeIid) {
        return new AnonModeSettings(subjectWorkload, profile, limits, timeRules, newIncludeIid);
    }

    /**
     * The settings of a workload on the call path (docs/formats/anon-mode.md "Flows"): roots addressed
     * to {@code subjectWorkload}, and {@code iid} written into this hop's layers only when {@code
     * includeIid}, which only the original-compatible profile accepts.
     *
     * @throws IllegalArgumentException when {@code includeIid} is asked for under the strict profile
     *     (its own verifiers would reject every token it extends)
     */
    public static AnonModeSettings forHop(
            SpiffeId subjectWorkload,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            boolean includeIid) {
        if (includeIid && profile == VerificationProfile.STRICT) {
            throw new IllegalArgumentException(
                    "writing iid needs the original-compatible profile (strict verifiers reject iid)");
        }
        return new AnonModeSettings(subjectWorkload, profile, limits, timeRules, includeIid);
    }
}
