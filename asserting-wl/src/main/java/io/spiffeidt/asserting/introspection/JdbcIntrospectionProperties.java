package io.spiffeidt.asserting.introspection;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The shared introspection database ({@code spiffeidt.asserting.introspection.jdbc.*}), read when
 * {@code spiffeidt.asserting.introspection.store=jdbc}.
 *
 * @param url JDBC URL (PostgreSQL in deployments), required with the JDBC store
 * @param username database user
 * @param password database password (never logged)
 * @param maxPoolSize connections per replica
 * @param purgeInterval least time between two deletions of expired entries
 */
@ConfigurationProperties("spiffeidt.asserting.introspection.jdbc")
public record JdbcIntrospectionProperties(
        String url,
        String username,
        String password,
        @DefaultValue("10") int maxPoolSize,
        @DefaultValue("60s") Duration purgeInterval) {

    @Override
    public String toString() {
        return "JdbcIntrospectionProperties[url=" + url + ", username=" + username + ", maxPoolSize=" + maxPoolSize
                + ", purgeInterval=" + purgeInterval + "]";
    }
}
