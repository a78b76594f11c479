package io.spiffeidt.mtier.anonmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.anonmode.AnonModeExtender;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.support.anonmode.AnonModeSupport;
import io.spiffeidt.support.identity.WorkloadIdentity;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The middle tier's Anon-Mode verifier (root audience: the subject workload) and extender. */
@Configuration(proxyBeanMethods = false)
public class AnonModeMtierConfiguration {

    @Bean
    AnonModeVerifier anonModeVerifier(
            WorkloadIdentity identity,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            AnonModeMtierProperties properties) {
        return new AnonModeVerifier(settings(identity, profile, limits, timeRules, properties));
    }

    @Bean
    AnonModeExtender anonModeExtender(
            WorkloadIdentity identity,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            AnonModeMtierProperties properties) {
        return new AnonModeExtender(
                settings(identity, profile, limits, timeRules, properties), NonceSource.secureRandom());
    }

    private static AnonModeSettings settings(
            WorkloadIdentity identity,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            AnonModeMtierProperties properties) {
        return AnonModeSupport.hopSettings(
                identity, profile, limits, timeRules, properties.includeIid(), "spiffeidt.mtier.anon-mode.include-iid");
    }
}
