package io.spiffeidt.targetwl.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariDataSource;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.sql.SQLException;
import java.time.Clock;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * An account database that goes away (an H2 server over TCP, stopped under the repository): a balance
 * or a deposit then fails within the pool's connection time-out, and {@link AccountErrors} answers it
 * 503 {@code UPSTREAM_UNAVAILABLE} with {@code Retry-After}, never 500 (deploy/fault-it);
 * once the server is back the same repository serves again and a retried key is applied once.
 */
class AccountDatabaseUnavailableTests {

    private Server server;
    private HikariDataSource dataSource;
    private AccountRepository accounts;
    private String url;

    @BeforeEach
    void start() throws SQLException {
        server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        url = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:accounts-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1";
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(url);
        dataSource.setConnectionTimeout(500);
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        accounts = new AccountRepository(dataSource, new DataSourceTransactionManager(dataSource), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        dataSource.close();
        server.stop();
    }

    private static ResponseEntity<ProblemDetail> answer(Runnable call) {
        RuntimeException e = catchThrowableOfType(RuntimeException.class, call::run);
        assertThat(e).isNotNull();
        return new AccountErrors().databaseUnavailable(e);
    }

    @Test
    void depositWhenTheDatabaseIsGoneThen503UpstreamUnavailable() {
        accounts.deposit("issuer", "alice", 5);
        server.stop();

        ResponseEntity<ProblemDetail> answer = answer(() -> accounts.deposit(
                "issuer",
                "alice",
                7,
                new IdempotencyKey("k-1"),
                AccountOperations.fingerprint(io.spiffeidt.core.Mode.LSVID, 7)));

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(answer.getBody().getProperties()).containsEntry("code", "UPSTREAM_UNAVAILABLE");
    }

    @Test
    void balanceWhenTheDatabaseIsGoneThen503UpstreamUnavailable() {
        accounts.balance("issuer", "bob");
        server.stop();

        ResponseEntity<ProblemDetail> answer = answer(() -> accounts.balance("issuer", "bob"));

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
    }

    @Test
    void exceptionHandlerWhenDeclaredThenCoversWhatTheRepositoryThrowsWithTheDatabaseGone() {
        server.stop();

        RuntimeException e = catchThrowableOfType(RuntimeException.class, () -> accounts.deposit("issuer", "carol", 1));

        assertThat(e)
                .isInstanceOfAny(
                        org.springframework.dao.DataAccessResourceFailureException.class,
                        org.springframework.dao.TransientDataAccessException.class,
                        org.springframework.transaction.CannotCreateTransactionException.class,
                        org.springframework.transaction.TransactionSystemException.class);
    }
}
