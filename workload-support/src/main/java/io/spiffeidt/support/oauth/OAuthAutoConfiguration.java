package io.spiffeidt.support.oauth;

import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.memo.MemoAutoConfiguration;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.OperationMetricsAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** OAuth access token verification against the issuers of {@code spiffeidt.oauth}. */
@AutoConfiguration(
        after = {
            SpiffeIdtAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            OperationMetricsAutoConfiguration.class,
            MemoAutoConfiguration.class
        })
@EnableConfigurationProperties(OAuthProperties.class)
public class OAuthAutoConfiguration {

    /**
     * OAuth access token verification against the configured issuers, with the memo of verified
     * tokens {@code spiffeidt.memo.uses.oauth-token} (with it off every request verifies its token as the
     * original did).
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public OAuthTokenVerifier oauthTokenVerifier(
            OAuthProperties properties,
            Memos memos,
            TimeRules timeRules,
            SignatureProvider signatureProvider,
            OperationMetrics metrics) {
        return new OAuthTokenVerifier(properties, timeRules, signatureProvider, metrics, memos);
    }
}
