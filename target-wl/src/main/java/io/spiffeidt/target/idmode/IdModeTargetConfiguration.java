package io.spiffeidt.target.idmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.idmode.IdModeSettings;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.WorkloadIdentity;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The target's ID-Mode verifier, pinned to the asserting workload. */
@Configuration(proxyBeanMethods = false)
public class IdModeTargetConfiguration {

    @Bean
    IdModeVerifier idModeVerifier(
            WorkloadIdentity identity,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            SignatureProvider provider) {
        IdModeSettings settings =
                new IdModeSettings(identity.idOf(Role.ASSERTING_WL), identity::bundleFor, profile, limits, timeRules);
        return new IdModeVerifier(settings, provider.provider());
    }
}
