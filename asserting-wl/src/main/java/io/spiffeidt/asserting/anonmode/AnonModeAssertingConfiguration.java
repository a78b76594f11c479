package io.spiffeidt.asserting.anonmode;

import io.spiffeidt.asserting.config.AssertingProperties;
import io.spiffeidt.asserting.config.AssertingProperties.ZkpTiming;
import io.spiffeidt.asserting.introspection.InMemoryIntrospectionStore;
import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.anonmode.AnonModeMinter;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.WorkloadIdentity;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The asserting workload's Anon-Mode minter (a fresh random root key per token, from a {@link
 * java.security.SecureRandom}) and its introspection store.
 */
@Configuration(proxyBeanMethods = false)
public class AnonModeAssertingConfiguration {

    @Bean
    AnonModeMinter anonModeMinter(
            WorkloadIdentity identity,
            AnonModeAssertingProperties properties,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules) {
        if (properties.zkp() == ZkpTiming.OFF) {
            throw new IllegalStateException("spiffeidt.asserting.anon-mode.zkp=off is not supported: "
                    + "introspection is what binds an Anon-Mode root to this workload");
        }
        TimeRules rules =
                new TimeRules(timeRules.clock(), timeRules.skew(), properties.lifetime(), timeRules.originalMaxAge());
        AnonModeSettings settings = new AnonModeSettings(identity.idOf(Role.SUBJECT_WL), profile, limits, rules, false);
        return new AnonModeMinter(settings, NonceSource.secureRandom());
    }

    @Bean
    @ConditionalOnProperty(
            name = "spiffeidt.asserting.introspection.store",
            havingValue = "memory",
            matchIfMissing = true)
    IntrospectionStore<AnonModeIntrospectionEntry> anonModeIntrospectionStore(
            Clock clock, AssertingProperties properties) {
        return new InMemoryIntrospectionStore<>(
                clock, properties.introspection().maxEntries());
    }
}
