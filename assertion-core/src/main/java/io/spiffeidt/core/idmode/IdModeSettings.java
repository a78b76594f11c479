package io.spiffeidt.core.idmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import java.time.Clock;
import java.util.Objects;

/**
 * What an {@link IdModeVerifier} checks against (docs/formats/id-mode.md "Verification"): the pinned
 * asserting workload, the X.509 trust bundles, the profile, the limits and the time rules.
 *
 * <p>Thread safety: immutable (given a thread-safe bundle source).
 *
 * @param assertingWorkload the only SPIFFE ID allowed to sign the root (delegation) layer
 * @param bundles the X.509 bundles, looked up by the signer's trust domain
 * @param profile {@link VerificationProfile#STRICT} (default) or original-compatible
 * @param limits size, depth and claim limits
 * @param timeRules clock, skew and the original-compatible maximum age
 */
public record IdModeSettings(
        SpiffeId assertingWorkload,
        TrustBundleSource bundles,
        VerificationProfile profile,
        Limits limits,
        TimeRules timeRules) {

    /** Requires every value. */
    public IdModeSettings {
        Objects.requireNonNull(assertingWorkload, "assertingWorkload");
        Objects.requireNonNull(bundles, "bundles");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
    }

    /** Strict settings with the default limits and time rules on {@code clock}. */
    public static IdModeSettings strict(SpiffeId assertingWorkload, TrustBundle bundle, Clock clock) {
        return new IdModeSettings(
                assertingWorkload,
                TrustBundleSource.of(bundle),
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(clock));
    }

    /** A copy with another profile. */
    public IdModeSettings withProfile(VerificationProfile newProfile) {
        return new IdModeSettings(assertingWorkload, bundles, newProfile, limits, timeRules);
    }

    /** A copy with other limits. */
    public IdModeSettings withLimits(Limits newLimits) {
        return new IdModeSettings(assertingWorkload, bundles, profile, newLimits, timeRules);
    }

    /** A copy with other time rules. */
    public IdModeSettings withTimeRules(TimeRules newTimeRules) {
        return new IdModeSettings(assertingWorkload, bundles, profile, limits, newTimeRules);
    }

    /** A copy with another bundle source (e.g. after a bundle rotation). */
    public IdModeSettings withBundles(TrustBundleSource newBundles) {
        return new IdModeSettings(assertingWorkload, newBundles, profile, limits, timeRules);
    }
}
