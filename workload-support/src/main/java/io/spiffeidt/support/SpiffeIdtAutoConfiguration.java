package io.spiffeidt.support;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The settings every other SPIFFE-IdT auto-configuration reads: the validated {@code spiffeidt.*}
 * properties, the clock and time rules, the limits and the verification profile. The other
 * concerns (identity, crypto, metrics, OAuth, clients, callers, problem details, server, and one
 * per mode) have their own auto-configuration, ordered after this one. Every bean backs off when
 * the application defines its own.
 *
 * <p>Nothing here is global: no static state, no {@code Security.addProvider}, no system
 * properties, so several workloads can run as separate contexts in one JVM.
 */
@AutoConfiguration
@EnableConfigurationProperties(SpiffeIdtProperties.class)
public class SpiffeIdtAutoConfiguration {

    /** The system clock in UTC. */
    @Bean
    @ConditionalOnMissingBean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** The limits of docs/formats/common.md. */
    @Bean
    @ConditionalOnMissingBean
    public Limits limits() {
        return Limits.defaults();
    }

    /** Time rules from {@code spiffeidt.verification}. */
    @Bean
    @ConditionalOnMissingBean
    public TimeRules timeRules(SpiffeIdtProperties properties, Clock clock) {
        SpiffeIdtProperties.Verification v = properties.verification();
        return new TimeRules(clock, v.skew(), v.lifetime(), v.originalMaxAge());
    }

    /** The verification profile from {@code spiffeidt.verification.profile}. */
    @Bean
    @ConditionalOnMissingBean
    public VerificationProfile verificationProfile(SpiffeIdtProperties properties) {
        return properties.verification().profile();
    }
}
