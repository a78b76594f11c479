package io.spiffeidt.support.wimse;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.txntoken.TxnTokenAutoConfiguration;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.support.txntoken.TxnTokenProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The wimse hop of this workload. */
@AutoConfiguration(
        after = {SpiffeIdtAutoConfiguration.class, HopAutoConfiguration.class, TxnTokenAutoConfiguration.class})
@EnableConfigurationProperties(WimseProperties.class)
public class WimseAutoConfiguration {

    /**
     * This workload's wimse hop, with the memos {@code spiffeidt.memo.uses.wimse-keys}, {@code
     * txn-token-keys} and the replay cache's size {@code wimse-jti}.
     */
    @Bean
    @ConditionalOnMissingBean
    public WimseHop wimseHop(
            HopParts parts,
            WimseProperties properties,
            IdentityProperties identityProperties,
            TxnTokenProperties txnTokenProperties) {
        // the user context is a Txn-Token, handled as mode txn-token handles it, but timed, counted and
        // traced as this mode's
        return new WimseHop(
                parts, properties, identityProperties, new TxnTokenHop(Mode.WIMSE, parts, txnTokenProperties));
    }
}
