package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.config.AssertingProperties;
import io.spiffeidt.asserting.introspection.InMemoryIntrospectionStore;
import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.support.SvidBound;
import io.spiffeidt.support.WorkloadIdentity;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The asserting workload's ID-Mode signing identity and introspection store. */
@Configuration(proxyBeanMethods = false)
public class IdModeAssertingConfiguration {

    @Bean
    SvidBound<IdModeCredentials> idModeSigningIdentity(WorkloadIdentity identity) {
        return new SvidBound<>(identity, svid -> IdModeCredentials.of(svid.getPrivateKey(), svid.getChain()));
    }

    @Bean
    IntrospectionStore<IdModeIntrospectionEntry> idModeIntrospectionStore(Clock clock, AssertingProperties properties) {
        return new InMemoryIntrospectionStore<>(
                clock, properties.introspection().maxEntries());
    }
}
