package io.spiffeidt.support.anonmode;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The Anon-Mode hop of this workload. */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, HopAutoConfiguration.class})
@EnableConfigurationProperties(AnonModeProperties.class)
public class AnonModeAutoConfiguration {

    /**
     * This workload's Anon-Mode hop, with the memos {@code spiffeidt.memo.uses.anonmode-*} and {@code
     * oauth-proof}.
     */
    @Bean
    @ConditionalOnMissingBean
    public AnonModeHop anonModeHop(HopParts parts, AnonModeProperties properties) {
        return new AnonModeHop(parts, properties.includeIid());
    }
}
