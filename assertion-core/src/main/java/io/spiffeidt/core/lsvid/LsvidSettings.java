package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import java.security.Provider;
import java.security.PublicKey;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * What an {@link LsvidVerifier} checks against (docs/formats/lsvid.md "Verification", docs/formats/common.md
 * "Verification profiles", "Limits", "Time").
 *
 * <p>Thread safety: immutable.
 *
 * @param assertingWorkload the pinned SPIFFE ID of the asserting workload: the only issuer whose
 *     layer may carry {@code dpa}/{@code dpr}
 * @param trustBundle the X.509 roots of the trust domain that anchor version 2 base documents
 * @param profile {@link VerificationProfile#STRICT} (version 2 only) or {@link
 *     VerificationProfile#ORIGINAL_COMPATIBLE} (also version 1)
 * @param limits size, depth and claim-length limits
 * @param timeRules clock, skew and the original-compatible maximum age
 * @param trustedV1IssuerKeys the original's SPIRE LSVID signing keys that version 1 base tokens
 *     must be signed with (only used under {@code ORIGINAL_COMPATIBLE}); may be empty
 * @param provider the JCA provider for ES256 and key parsing, or {@code null} for the JDK's
 *     provider list
 */
public record LsvidSettings(
        SpiffeId assertingWorkload,
        TrustBundle trustBundle,
        VerificationProfile profile,
        Limits limits,
        TimeRules timeRules,
        List<PublicKey> trustedV1IssuerKeys,
        Provider provider) {

    /** Requires every value except the provider; copies the key list. */
    public LsvidSettings {
        Objects.requireNonNull(assertingWorkload, "assertingWorkload");
        Objects.requireNonNull(trustBundle, "trustBundle");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
        trustedV1IssuerKeys = List.copyOf(trustedV1IssuerKeys);
    }

    /** Strict settings with the default limits and time rules and no version 1 keys. */
    public static LsvidSettings strict(
            SpiffeId assertingWorkload, TrustBundle trustBundle, Clock clock, Provider provider) {
        return new LsvidSettings(
                assertingWorkload,
                trustBundle,
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(clock),
                List.of(),
                provider);
    }

    /** A copy with another profile. */
    public LsvidSettings withProfile(VerificationProfile newProfile) {
        return new LsvidSettings(
                assertingWorkload, trustBundle, newProfile, limits, timeRules, trustedV1IssuerKeys, provider);
    }

    /** A copy with other limits. */
    public LsvidSettings withLimits(Limits newLimits) {
        return new LsvidSettings(
                assertingWorkload, trustBundle, profile, newLimits, timeRules, trustedV1IssuerKeys, provider);
    }

    /** A copy with other time rules. */
    public LsvidSettings withTimeRules(TimeRules newTimeRules) {
        return new LsvidSettings(
                assertingWorkload, trustBundle, profile, limits, newTimeRules, trustedV1IssuerKeys, provider);
    }

    /** A copy with other trusted version 1 issuer keys. */
    public LsvidSettings withTrustedV1IssuerKeys(List<PublicKey> keys) {
        return new LsvidSettings(assertingWorkload, trustBundle, profile, limits, timeRules, keys, provider);
    }

    @Override
    public String toString() {
        return "LsvidSettings[assertingWorkload=" + assertingWorkload + ", trustDomain=" + trustBundle.trustDomain()
                + ", profile=" + profile + ", trustedV1IssuerKeys=" + trustedV1IssuerKeys.size() + "]";
    }
}
