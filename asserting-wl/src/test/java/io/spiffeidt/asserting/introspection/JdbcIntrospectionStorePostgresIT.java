package io.spiffeidt.asserting.introspection;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The introspection store scenarios against a real PostgreSQL server, given by {@code
 * SPIFFEIDT_TEST_POSTGRES_URL}, {@code _USER} and {@code _PASSWORD} ({@code .ci/postgres.sh} starts
 * one and prints them); skipped when the URL is not set.
 */
class JdbcIntrospectionStorePostgresIT extends JdbcIntrospectionStoreScenarios {

    @Override
    HikariDataSource openDataSource() {
        String url = System.getenv("SPIFFEIDT_TEST_POSTGRES_URL");
        assumeTrue(url != null && !url.isBlank(), "SPIFFEIDT_TEST_POSTGRES_URL is not set");
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(url);
        ds.setUsername(System.getenv("SPIFFEIDT_TEST_POSTGRES_USER"));
        ds.setPassword(System.getenv("SPIFFEIDT_TEST_POSTGRES_PASSWORD"));
        ds.setMaximumPoolSize(4);
        return ds;
    }
}
