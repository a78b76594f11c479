package io.spiffeidt.asserting.introspection;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The introspection store of the asserting workload ({@code spiffeidt.asserting.introspection.*}); the
 * database of the JDBC store is {@link JdbcIntrospectionProperties}.
 *
 * @param store where introspection entries are kept: {@code memory} (one replica) or {@code jdbc}
 *     (shared by every replica, see {@code spiffeidt.asserting.introspection.jdbc.*})
 * @param maxEntries bound of the in-memory store (oldest evicted first)
 * @param purgeInterval least time between two sweeps of expired entries from the in-memory store (each
 *     entry holds a whole OAuth proof, about 80 KB at 80 rounds)
 */
@ConfigurationProperties("spiffeidt.asserting.introspection")
@Validated
public record IntrospectionProperties(
        @DefaultValue("memory") @NotNull Store store,
        @DefaultValue("100000") @Min(1) int maxEntries,
        @DefaultValue("10s") @NotNull Duration purgeInterval) {

    public IntrospectionProperties {
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("spiffeidt.asserting.introspection.purge-interval must be positive");
        }
    }

    /** Where introspection entries are kept. */
    public enum Store {
        /** In this process. */
        MEMORY,
        /** In a database shared by the replicas. */
        JDBC
    }
}
