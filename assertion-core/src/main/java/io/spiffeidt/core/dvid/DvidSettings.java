package io.spiffeidt.core.dvid;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import java.time.Clock;
import java.util.Locale;
import java.util.Objects;

/**
 * Settings of the DVID minter and verifier (docs/formats/dvid.md, docs/formats/common.md "Verification profiles",
 * "Limits", "Time").
 *
 * <p>Thread safety: immutable.
 *
 * @param assertingWorkload the pinned SPIFFE ID of the asserting workload: the {@code iss} of every
 *     DVID minted and accepted
 * @param trustDomain the trust domain every {@code sub} must belong to
 * @param algorithm the one JWS algorithm accepted (and used to mint)
 * @param profile strict (default) or original-compatible
 * @param limits size, claim and ZKP round limits
 * @param timeRules clock, skew, lifetime and original max age
 * @param zkpRounds rounds of the zero-knowledge proofs made for this asserting workload (default 80)
 */
public record DvidSettings(
        SpiffeId assertingWorkload,
        String trustDomain,
        DvidAlgorithm algorithm,
        VerificationProfile profile,
        Limits limits,
        TimeRules timeRules,
        int zkpRounds) {

    /** The default number of ZKP rounds (as in the thesis). */
    public static final int DEFAULT_ZKP_ROUNDS = 80;

    /** Validates the values and lower-cases the trust domain. */
    public DvidSettings {
        Objects.requireNonNull(assertingWorkload, "assertingWorkload");
        Objects.requireNonNull(trustDomain, "trustDomain");
        Objects.requireNonNull(algorithm, "algorithm");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(timeRules, "timeRules");
        trustDomain = trustDomain.toLowerCase(Locale.ROOT);
        if (trustDomain.isEmpty()) {
            throw new IllegalArgumentException("trust domain must not be empty");
        }
        if (zkpRounds < 1 || zkpRounds > limits.maxZkpRounds()) {
            throw new IllegalArgumentException("zkpRounds must be between 1 and " + limits.maxZkpRounds());
        }
        if (profile == VerificationProfile.STRICT && zkpRounds < limits.minZkpRounds()) {
            throw new IllegalArgumentException("zkpRounds under the strict minimum " + limits.minZkpRounds());
        }
    }

    /**
     * The defaults: the asserting workload's own trust domain, RS256, strict, default limits, default
     * time rules on {@code clock}, 80 ZKP rounds.
     */
    public static DvidSettings defaults(SpiffeId assertingWorkload, Clock clock) {
        return new DvidSettings(
                assertingWorkload,
                assertingWorkload.trustDomain(),
                DvidAlgorithm.RS256,
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(clock),
                DEFAULT_ZKP_ROUNDS);
    }

    /** A copy with another profile. */
    public DvidSettings withProfile(VerificationProfile newProfile) {
        return new DvidSettings(assertingWorkload, trustDomain, algorithm, newProfile, limits, timeRules, zkpRounds);
    }

    /** A copy with another algorithm. */
    public DvidSettings withAlgorithm(DvidAlgorithm newAlgorithm) {
        return new DvidSettings(assertingWorkload, trustDomain, newAlgorithm, profile, limits, timeRules, zkpRounds);
    }

    /** A copy with other limits. */
    public DvidSettings withLimits(Limits newLimits) {
        return new DvidSettings(assertingWorkload, trustDomain, algorithm, profile, newLimits, timeRules, zkpRounds);
    }

    /** A copy with other time rules. */
    public DvidSettings withTimeRules(TimeRules newTimeRules) {
        return new DvidSettings(assertingWorkload, trustDomain, algorithm, profile, limits, newTimeRules, zkpRounds);
    }

    /** A copy with a clock replaced, other time rules kept. */
    public DvidSettings withClock(Clock clock) {
        return withTimeRules(new TimeRules(clock, timeRules.skew(), timeRules.lifetime(), timeRules.originalMaxAge()));
    }

    /** A copy with another number of ZKP rounds. */
    public DvidSettings withZkpRounds(int newZkpRounds) {
        return new DvidSettings(assertingWorkload, trustDomain, algorithm, profile, limits, timeRules, newZkpRounds);
    }
}
