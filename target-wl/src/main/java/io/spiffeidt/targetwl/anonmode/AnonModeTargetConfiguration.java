package io.spiffeidt.targetwl.anonmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The target's Anon-Mode verifier (root audience: the subject workload). */
@Configuration(proxyBeanMethods = false)
public class AnonModeTargetConfiguration {

    @Bean
    AnonModeVerifier anonModeVerifier(
            WorkloadIdentity identity, VerificationProfile profile, Limits limits, TimeRules timeRules) {
        return new AnonModeVerifier(
                new AnonModeSettings(identity.idOf(Role.SUBJECT_WL), profile, limits, timeRules, false));
    }
}
