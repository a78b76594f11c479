package io.spiffeidt.mtier.config;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Verification settings of the middle tier. */
@Configuration(proxyBeanMethods = false)
public class MiddleTierConfiguration {

    @Bean
    DvidSettings dvidSettings(
            WorkloadIdentity identity, VerificationProfile profile, Limits limits, TimeRules timeRules) {
        return new DvidSettings(
                identity.idOf(Role.ASSERTING_WL),
                identity.self().trustDomain(),
                DvidAlgorithm.RS256,
                profile,
                limits,
                timeRules,
                DvidSettings.DEFAULT_ZKP_ROUNDS);
    }
}
