package io.spiffeidt.support.idmode;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The ID-Mode hop of this workload. */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, HopAutoConfiguration.class})
public class IdModeAutoConfiguration {

    /**
     * This workload's ID-Mode hop: its verifier and the layers it signs, with the memos {@code
     * spiffeidt.memo.uses.idmode-*} and {@code oauth-proof}.
     */
    @Bean
    @ConditionalOnMissingBean
    public IdModeHop idModeHop(HopParts parts) {
        return new IdModeHop(parts);
    }
}
