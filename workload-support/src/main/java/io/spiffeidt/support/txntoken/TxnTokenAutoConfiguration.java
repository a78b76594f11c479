package io.spiffeidt.support.txntoken;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The Txn-Token hop of this workload. */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, HopAutoConfiguration.class})
@EnableConfigurationProperties(TxnTokenProperties.class)
public class TxnTokenAutoConfiguration {

    /** This workload's Txn-Token hop, with the memo {@code spiffeidt.memo.uses.txn-token-keys}. */
    @Bean
    @ConditionalOnMissingBean
    public TxnTokenHop txnTokenHop(HopParts parts, TxnTokenProperties properties) {
        return new TxnTokenHop(parts, properties);
    }
}
