package io.spiffeidt.support.client;

import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.support.identity.IdentityAutoConfiguration;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.X509SourceFactory;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration;
import io.spiffeidt.support.server.AdmissionProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

/**
 * The outbound SPIFFE mTLS clients, one per mode and downstream, pooled or not by {@code
 * spiffeidt.pooling}. They start from Boot's {@link RestClient.Builder} (so message converters and
 * the {@code http.client.requests} observation apply); there is no bare fallback builder.
 */
@AutoConfiguration(
        after = {
            RestClientAutoConfiguration.class,
            IdentityAutoConfiguration.class,
            OperationMetricsAutoConfiguration.class
        })
@EnableConfigurationProperties({IdentityProperties.class, PoolingProperties.class})
public class ClientAutoConfiguration {

    /** The outbound mTLS clients. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public DownstreamClients downstreamClients(
            IdentityProperties identity,
            PoolingProperties pooling,
            X509Source source,
            X509SourceFactory factory,
            RestClient.Builder restClientBuilder,
            OperationMetrics metrics,
            ObjectProvider<AdmissionProperties> admission) {
        return new DownstreamClients(
                identity,
                pooling,
                source,
                factory,
                restClientBuilder,
                metrics,
                admission.getIfAvailable(AdmissionProperties::defaults));
    }
}
