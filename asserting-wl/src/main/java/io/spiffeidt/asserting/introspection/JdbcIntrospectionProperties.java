package io.spiffeidt.asserting.introspection;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The shared introspection database ({@code spiffeidt.asserting.introspection.jdbc.*}), read when
 * {@code spiffeidt.asserting.introspection.store=jdbc}.
 *
 * @param url JDBC URL (PostgreSQL in deployments), required with the JDBC store; unset: the JDBC
 *     store refuses to start, the in-memory stores need none
 * @param username database user; unset: the JDBC driver's own (from the URL or none)
 * @param password database password (never logged); unset: none is sent
 * @param maxPoolSize connections per replica
 * @param purgeInterval least time between two deletions of expired entries
 * @param connectionTimeout how long a request waits for a connection: a database out of reach fails
 *     it after this (503 {@code UPSTREAM_UNAVAILABLE}, which a client retries), well within a request's
 *     deadline
 */
@ConfigurationProperties("spiffeidt.asserting.introspection.jdbc")
public record JdbcIntrospectionProperties(
        String url,
        String username,
        String password,
        @DefaultValue("10") int maxPoolSize,
        @DefaultValue("60s") Duration purgeInterval,
        @DefaultValue("2s") Duration connectionTimeout) {

    @Override
    public String toString() {
        return "JdbcIntrospectionProperties[url=" + url + ", username=" + username + ", maxPoolSize=" + maxPoolSize
                + ", purgeInterval=" + purgeInterval + ", connectionTimeout=" + connectionTimeout + "]";
    }
}
