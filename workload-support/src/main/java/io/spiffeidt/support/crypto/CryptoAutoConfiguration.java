package io.spiffeidt.support.crypto;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The JCA provider every signature and verification of this workload uses. */
@AutoConfiguration(after = SpiffeIdtAutoConfiguration.class)
@EnableConfigurationProperties(CryptoProperties.class)
public class CryptoAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(CryptoAutoConfiguration.class);

    /** The JCA provider of {@code spiffeidt.crypto.provider}. */
    @Bean
    @ConditionalOnMissingBean
    public SignatureProvider signatureProvider(CryptoProperties properties) {
        SignatureProvider provider = new SignatureProvider(properties.provider());
        log.info(
                "crypto provider {} ({}: {})",
                provider.name(),
                provider.provider().getName(),
                provider.reason());
        return provider;
    }
}
