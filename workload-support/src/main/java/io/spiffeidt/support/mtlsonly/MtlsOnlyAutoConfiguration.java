package io.spiffeidt.support.mtlsonly;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.oauth.OAuthAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthProperties;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The mtls-only hop of this workload (a baseline without a document). */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, OAuthAutoConfiguration.class, HopAutoConfiguration.class})
public class MtlsOnlyAutoConfiguration {

    /** This workload's mtls-only hop, accepting users of the issuers of {@code spiffeidt.oauth.issuers}. */
    @Bean
    @ConditionalOnMissingBean
    public MtlsOnlyHop mtlsOnlyHop(HopParts parts, OAuthProperties oauth) {
        Set<String> issuers =
                oauth.issuers().stream().map(OAuthProperties.Issuer::issuer).collect(Collectors.toSet());
        return new MtlsOnlyHop(parts, issuers);
    }
}
