package io.spiffeidt.targetwl.account;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The account scenarios against a real PostgreSQL server, given by the environment variables {@code
 * SPIFFEIDT_TEST_POSTGRES_URL} (a JDBC URL), {@code SPIFFEIDT_TEST_POSTGRES_USER} and {@code
 * SPIFFEIDT_TEST_POSTGRES_PASSWORD} ({@code .ci/postgres.sh} starts one and prints them); skipped
 * when the URL is not set. The database may be reused between runs: the migration is idempotent and
 * every scenario uses fresh user IDs.
 */
class AccountRepositoryPostgresIT extends AccountRepositoryScenarios {

    @Override
    HikariDataSource openDataSource() {
        String url = System.getenv("SPIFFEIDT_TEST_POSTGRES_URL");
        assumeTrue(url != null && !url.isBlank(), "SPIFFEIDT_TEST_POSTGRES_URL is not set");
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(url);
        dataSource.setUsername(System.getenv("SPIFFEIDT_TEST_POSTGRES_USER"));
        dataSource.setPassword(System.getenv("SPIFFEIDT_TEST_POSTGRES_PASSWORD"));
        dataSource.setMaximumPoolSize(10);
        return dataSource;
    }

    @Override
    String countSessionsWaitingForALock() {
        return "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
    }
}
