package io.spiffeidt.support.hop;

import io.spiffeidt.support.client.ClientAutoConfiguration;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@link HopServices} every mode's hop is connected to: this workload's operation metrics, its
 * downstream clients and the IdP keys its OAuth verifier resolves.
 */
@AutoConfiguration(
        after = {OperationMetricsAutoConfiguration.class, OAuthAutoConfiguration.class, ClientAutoConfiguration.class})
public class HopAutoConfiguration {

    /** The services of this workload's hops (a missing one stays {@code null}: that hop makes no call). */
    @Bean
    @ConditionalOnMissingBean
    public HopServices hopServices(
            ObjectProvider<OperationMetrics> metrics,
            ObjectProvider<DownstreamClients> clients,
            ObjectProvider<OAuthTokenVerifier> oauth) {
        OAuthTokenVerifier verifier = oauth.getIfAvailable();
        OperationMetrics operationMetrics = metrics.getIfAvailable();
        if (operationMetrics == null) {
            return HopServices.standalone();
        }
        return new HopServices(operationMetrics, clients.getIfAvailable(), verifier == null ? null : verifier::idpKey);
    }
}
