package io.spiffeidt.mtier.idmode;

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

/** The middle tier's ID-Mode verifier (pinned to the asserting workload) and signing identity. */
@Configuration(proxyBeanMethods = false)
public class IdModeMtierConfiguration {

    @Bean
    IdModeVerifier idModeVerifier(
            WorkloadIdentity identity,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            SignatureProvider provider) {
        IdModeSettings settings = new IdModeSettings(
                identity.idOf(Role.ASSERTING_WL),
                new IdModeTrustBundles(identity.source()),
                profile,
                limits,
                timeRules);
        return new IdModeVerifier(settings, provider.provider());
    }

    @Bean
    IdModeSigningIdentity idModeSigningIdentity(WorkloadIdentity identity) {
        return new IdModeSigningIdentity(identity);
    }
}
