package io.spiffeidt.support.dvid;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The DVID hop of this workload. */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, HopAutoConfiguration.class})
public class DvidAutoConfiguration {

    /**
     * This workload's DVID hop, with the memos {@code spiffeidt.memo.uses.dvid-keys} (whether DVIDs are
     * verified locally) and {@code oauth-proof}.
     */
    @Bean
    @ConditionalOnMissingBean
    public DvidHop dvidHop(HopParts parts) {
        return new DvidHop(parts);
    }
}
