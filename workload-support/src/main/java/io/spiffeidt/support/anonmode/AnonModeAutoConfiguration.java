package io.spiffeidt.support.anonmode;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.identity.IdentityAutoConfiguration;
import io.spiffeidt.support.identity.WorkloadIdentity;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The Anon-Mode hop of this workload. */
@AutoConfiguration(
        after = {
            SpiffeIdtAutoConfiguration.class,
            IdentityAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            HopAutoConfiguration.class
        })
@EnableConfigurationProperties(AnonModeProperties.class)
public class AnonModeAutoConfiguration {

    /**
     * This workload's Anon-Mode hop, with the memos {@code spiffeidt.memo.anonmode-*} and {@code
     * oauth-proof}.
     */
    @Bean
    @ConditionalOnMissingBean
    public AnonModeHop anonModeHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            VerifiedProofs verifiedProofs,
            AnonModeProperties properties,
            Memos memos,
            ObjectProvider<HopServices> hopServices) {
        AnonModeHop hop =
                new AnonModeHop(identity, provider, profile, limits, timeRules, properties.includeIid(), memos);
        hop.proofs().useVerifiedProofs(verifiedProofs);
        hop.connect(hopServices.getIfAvailable(HopServices::standalone));
        return hop;
    }
}
