package io.spiffeidt.mtier.idmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeSettings;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.SvidBound;
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
        IdModeSettings settings =
                new IdModeSettings(identity.idOf(Role.ASSERTING_WL), identity::bundleFor, profile, limits, timeRules);
        return new IdModeVerifier(settings, provider.provider());
    }

    @Bean
    SvidBound<IdModeCredentials> idModeSigningIdentity(WorkloadIdentity identity) {
        return new SvidBound<>(identity, svid -> IdModeCredentials.of(svid.getPrivateKey(), svid.getChain()));
    }
}
