package io.spiffeidt.support.oauth;

import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.zkp.VerifiedProofs;
import io.spiffeidt.support.ProofMemoProperties;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.TokenMemoProperties;
import io.spiffeidt.support.client.PoolingProperties;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** OAuth access token verification against the issuers of {@code spiffeidt.oauth}. */
@AutoConfiguration(
        after = {
            SpiffeIdtAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            OperationMetricsAutoConfiguration.class
        })
@EnableConfigurationProperties({
    OAuthProperties.class,
    PoolingProperties.class,
    TokenMemoProperties.class,
    ProofMemoProperties.class
})
public class OAuthAutoConfiguration {

    /**
     * The memo of verified OAuth proofs (issue 13): {@code spiffeidt.proof-memo.max-entries} (10,000)
     * for {@code spiffeidt.proof-memo.ttl} (5 minutes) each. Empty, so every use verifies the proof
     * again as the original did, under the {@code thesis} pooling profile or with {@code
     * spiffeidt.proof-memo.enabled=false}.
     */
    @Bean
    @ConditionalOnMissingBean
    public VerifiedProofs verifiedProofs(PoolingProperties pooling, ProofMemoProperties memo, Clock clock) {
        boolean on = memo.enabled() && pooling.remembersWork();
        return new VerifiedProofs(on ? memo.maxEntries() : 0, memo.ttl(), clock);
    }

    /**
     * OAuth access token verification against the configured issuers, with the memo of verified
     * tokens of {@code spiffeidt.token-memo} (none under the {@code thesis} pooling profile: every
     * request verifies its token as the original did).
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public OAuthTokenVerifier oauthTokenVerifier(
            OAuthProperties properties,
            PoolingProperties pooling,
            TokenMemoProperties memo,
            TimeRules timeRules,
            SignatureProvider signatureProvider,
            OperationMetrics metrics) {
        boolean on = memo.enabled() && pooling.remembersWork();
        return new OAuthTokenVerifier(
                properties,
                timeRules,
                signatureProvider,
                metrics,
                pooling.connectTimeout(),
                pooling.responseTimeout(),
                on ? memo.maxEntries() : 0,
                memo.ttl());
    }
}
