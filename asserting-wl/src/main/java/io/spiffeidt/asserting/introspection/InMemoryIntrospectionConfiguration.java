package io.spiffeidt.asserting.introspection;

import io.spiffeidt.core.Mode;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The in-memory introspection stores ({@code spiffeidt.asserting.introspection.store=memory}, the
 * default): one per mode that has introspection, bounded by {@link IntrospectionProperties}. {@link
 * JdbcIntrospectionConfiguration} makes the stores of the same names for {@code jdbc}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(
        name = JdbcIntrospectionConfiguration.STORE_PROPERTY,
        havingValue = "memory",
        matchIfMissing = true)
public class InMemoryIntrospectionConfiguration {

    @Bean
    IntrospectionStore<IntrospectionEntry> dvidIntrospectionStore(Clock clock, IntrospectionProperties properties) {
        return InMemoryIntrospectionStore.of(Mode.DVID.pathSegment(), clock, properties);
    }

    @Bean
    IntrospectionStore<IntrospectionEntry> idModeIntrospectionStore(Clock clock, IntrospectionProperties properties) {
        return InMemoryIntrospectionStore.of(Mode.ID_MODE.pathSegment(), clock, properties);
    }

    @Bean
    IntrospectionStore<IntrospectionEntry> anonModeIntrospectionStore(Clock clock, IntrospectionProperties properties) {
        return InMemoryIntrospectionStore.of(Mode.ANON_MODE.pathSegment(), clock, properties);
    }
}
