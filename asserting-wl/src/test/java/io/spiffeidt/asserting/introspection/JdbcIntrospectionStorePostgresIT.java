package io.spiffeidt.asserting.introspection;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The introspection store scenarios against a real PostgreSQL server, given by {@code
 * SPIFFEIDT_TEST_POSTGRES_URL}, {@code _USER} and {@code _PASSWORD} ({@code .ci/postgres.sh} starts
 * one and prints them); skipped when the URL is not set. The store lives in a schema of its own,
 * so that it never meets target-wl's account migrations in the same database.
 */
class JdbcIntrospectionStorePostgresIT extends JdbcIntrospectionStoreScenarios {

    private static final String SCHEMA = "introspection_it";

    @Override
    HikariDataSource openDataSource() {
        String url = System.getenv("SPIFFEIDT_TEST_POSTGRES_URL");
        assumeTrue(url != null && !url.isBlank(), "SPIFFEIDT_TEST_POSTGRES_URL is not set");
        String user = System.getenv("SPIFFEIDT_TEST_POSTGRES_USER");
        String password = System.getenv("SPIFFEIDT_TEST_POSTGRES_PASSWORD");
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, user, password);
                java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create the test schema", e);
        }
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl(url);
        ds.setUsername(user);
        ds.setPassword(password);
        ds.setSchema(SCHEMA);
        ds.setMaximumPoolSize(4);
        return ds;
    }
}
