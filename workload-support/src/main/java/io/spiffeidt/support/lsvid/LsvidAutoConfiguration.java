package io.spiffeidt.support.lsvid;

import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.VerificationProperties;
import io.spiffeidt.support.hop.HopAutoConfiguration;
import io.spiffeidt.support.hop.HopParts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The LSVID hop of this workload and the version 1 issuer keys it trusts. */
@AutoConfiguration(after = {SpiffeIdtAutoConfiguration.class, HopAutoConfiguration.class})
@EnableConfigurationProperties(VerificationProperties.class)
public class LsvidAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LsvidAutoConfiguration.class);

    /** The trusted version 1 LSVID issuer keys of {@code spiffeidt.verification.lsvid-v1-issuer-keys}. */
    @Bean
    @ConditionalOnMissingBean
    public LsvidV1IssuerKeys lsvidV1IssuerKeys(VerificationProperties verification) {
        LsvidV1IssuerKeys keys = LsvidV1IssuerKeys.load(verification.lsvidV1IssuerKeys());
        if (!keys.keys().isEmpty() && verification.profile() == VerificationProfile.STRICT) {
            log.warn(
                    "{} version 1 LSVID issuer key(s) configured but unused under the strict profile",
                    keys.keys().size());
        }
        return keys;
    }

    /**
     * This workload's LSVID hop: its base, extensions, and verification, with the memos {@code
     * spiffeidt.memo.uses.lsvid-*} (young extensions reused; with them off it signs one per
     * request as the original did).
     */
    @Bean
    @ConditionalOnMissingBean
    public LsvidHop lsvidHop(HopParts parts, LsvidV1IssuerKeys v1IssuerKeys) {
        return new LsvidHop(parts, v1IssuerKeys);
    }
}
