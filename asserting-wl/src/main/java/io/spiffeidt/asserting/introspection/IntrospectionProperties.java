package io.spiffeidt.asserting.introspection;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
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
 */
@ConfigurationProperties("spiffeidt.asserting.introspection")
@Validated
public record IntrospectionProperties(
        @DefaultValue("memory") @NotNull Store store, @DefaultValue("100000") @Min(1) int maxEntries) {

    /** Where introspection entries are kept. */
    public enum Store {
        /** In this process. */
        MEMORY,
        /** In a database shared by the replicas. */
        JDBC
    }
}
