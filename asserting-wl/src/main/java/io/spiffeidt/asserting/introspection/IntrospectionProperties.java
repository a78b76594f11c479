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
 * @param maxEntries most entries of each in-memory store (one per mode; oldest dropped first)
 * @param maxChars most characters the entries of each in-memory store weigh together (a kept OAuth
 *     proof about 85,000 at 80 rounds, a pending OAuth token about 1,000; oldest dropped first);
 *     unset: an eighth of the JVM's maximum heap
 * @param maxEntriesPerUser most entries one user holds in each store, in memory or JDBC (a user's own
 *     oldest dropped first): one user's mints never push out another user's records
 * @param purgeInterval least time between two sweeps of expired entries from the in-memory stores (each
 *     entry may hold a whole OAuth proof, about 85 KB at 80 rounds)
 */
@ConfigurationProperties("spiffeidt.asserting.introspection")
@Validated
public record IntrospectionProperties(
        @DefaultValue("memory") @NotNull Store store,
        @DefaultValue("100000") @Min(1) int maxEntries,
        @Min(1) Long maxChars,
        @DefaultValue("16") @Min(1) int maxEntriesPerUser,
        @DefaultValue("10s") @NotNull Duration purgeInterval) {

    public IntrospectionProperties {
        if (purgeInterval.isNegative() || purgeInterval.isZero()) {
            throw new IllegalArgumentException("spiffeidt.asserting.introspection.purge-interval must be positive");
        }
    }

    /** {@link #maxChars()}, or an eighth of the JVM's maximum heap when unset. */
    public long maxCharsOrDefault() {
        return maxChars != null ? maxChars : Math.max(1, Runtime.getRuntime().maxMemory() / 8);
    }

    /** Where introspection entries are kept. */
    public enum Store {
        /** In this process. */
        MEMORY,
        /** In a database shared by the replicas. */
        JDBC
    }
}
