package io.spiffeidt.asserting.introspection;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.zaxxer.hikari.HikariDataSource;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.problem.ProblemDetailsAdvice;
import io.spiffeidt.testkit.MutableClock;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The introspection database going away (an H2 server over TCP, stopped under the store): reads and
 * writes fail with {@code UPSTREAM_UNAVAILABLE}, answered 503, within the pool's connection time-out,
 * never a 500 (deploy/fault-it); a statement the database refuses stays a 500.
 */
class JdbcIntrospectionStoreUnavailableTests {

    private final MutableClock clock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));
    private Server server;
    private HikariDataSource dataSource;
    private JdbcIntrospectionStore<IntrospectionEntry> store;

    @BeforeEach
    void start() throws SQLException {
        server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl("jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:introspection-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1");
        dataSource.setConnectionTimeout(500);
        JdbcIntrospectionStore.migrate(dataSource);
        store = new JdbcIntrospectionStore<>(
                dataSource, "dvid", IntrospectionEntry.JDBC_MAPPING, clock, Duration.ofMinutes(1));
    }

    @AfterEach
    void stop() {
        dataSource.close();
        server.stop();
    }

    private static IntrospectionEntry entry() {
        return new IntrospectionEntry(new OAuthProof("h.p.s", "{}", "{\"kid\":\"k1\"}"), null);
    }

    @Test
    void getWhenTheDatabaseIsGoneThenUpstreamUnavailableAnswered503() {
        store.put("jti-1", entry(), clock.instant().plusSeconds(60));
        server.stop();

        AssertionException e = catchThrowableOfType(AssertionException.class, () -> store.get("jti-1"));

        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
        assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(503);
    }

    @Test
    void putWhenTheDatabaseIsGoneThenUpstreamUnavailable() {
        server.stop();

        assertThatAssertion(() -> store.put("jti-2", entry(), clock.instant().plusSeconds(60)))
                .hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void failureWhenTheStatementIsRefusedThenAFaultOfTheStore() {
        RuntimeException e = JdbcIntrospectionStore.failure("write", new SQLException("no such table", "42P01"));

        assertThat(e).isInstanceOf(IllegalStateException.class);
    }
}
