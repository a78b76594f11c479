package io.spiffeidt.support.bearerforward;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.oauth.OAuthAutoConfiguration;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The bearer-forward hop of this workload (a baseline without a document). */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, OAuthAutoConfiguration.class, HopAutoConfiguration.class})
public class BearerForwardAutoConfiguration {

    /** This workload's bearer-forward hop, verifying with this workload's access token verifier. */
    @Bean
    @ConditionalOnMissingBean
    public BearerForwardHop bearerForwardHop(HopParts parts, OAuthTokenVerifier oauth) {
        return new BearerForwardHop(parts, oauth);
    }
}
