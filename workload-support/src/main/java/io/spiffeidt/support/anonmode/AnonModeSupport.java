package io.spiffeidt.support.anonmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;

/** What the Anon-Mode hops (subject-wl, m-tier) share when they configure the mode. */
public final class AnonModeSupport {

    private AnonModeSupport() {}

    /**
     * The settings of an extending hop: the subject workload's ID, and {@code iid} written only
     * when switched on, which only an original-compatible deployment accepts.
     *
     * @param includeIidProperty the property that switched {@code iid} on, for the start-up error
     * @throws IllegalStateException when {@code iid} is on under the strict profile
     */
    public static AnonModeSettings hopSettings(
            WorkloadIdentity identity,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            boolean includeIid,
            String includeIidProperty) {
        if (includeIid && profile == VerificationProfile.STRICT) {
            throw new IllegalStateException(includeIidProperty + " needs "
                    + "spiffeidt.verification.profile=original-compatible (strict verifiers reject iid)");
        }
        return new AnonModeSettings(identity.idOf(Role.SUBJECT_WL), profile, limits, timeRules, includeIid);
    }
}
