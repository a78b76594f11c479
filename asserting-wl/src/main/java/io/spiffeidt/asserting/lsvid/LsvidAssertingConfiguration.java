package io.spiffeidt.asserting.lsvid;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.support.LsvidHop;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.WorkloadIdentity;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The asserting workload's LSVID beans. */
@Configuration(proxyBeanMethods = false)
public class LsvidAssertingConfiguration {

    @Bean
    LsvidHop lsvidAssertingHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules) {
        return new LsvidHop(identity, provider, profile, limits, timeRules);
    }
}
