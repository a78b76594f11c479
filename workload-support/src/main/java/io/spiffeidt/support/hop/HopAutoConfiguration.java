package io.spiffeidt.support.hop;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.client.ClientAutoConfiguration;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.IdentityAutoConfiguration;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.memo.MemoAutoConfiguration;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * What every mode's hop is built from ({@link HopParts}), with the {@link HopServices} it records
 * into and calls through: this workload's operation metrics, its downstream clients and the IdP keys
 * its OAuth verifier resolves.
 */
@AutoConfiguration(
        after = {
            SpiffeIdtAutoConfiguration.class,
            IdentityAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            MemoAutoConfiguration.class,
            OperationMetricsAutoConfiguration.class,
            OAuthAutoConfiguration.class,
            ClientAutoConfiguration.class
        })
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

    /** What every mode's hop of this workload is built from (a workload with an identity only). */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(WorkloadIdentity.class)
    public HopParts hopParts(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            Memos memos,
            VerifiedProofs verifiedProofs,
            HopServices services) {
        return new HopParts(identity, provider, profile, limits, timeRules, memos, verifiedProofs, services);
    }
}
