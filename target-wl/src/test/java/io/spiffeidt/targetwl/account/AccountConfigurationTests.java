package io.spiffeidt.targetwl.account;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The account repository wired by Boot's DataSource and Flyway auto-configuration (H2 default). */
class AccountConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class,
                    FlywayAutoConfiguration.class))
            .withUserConfiguration(AccountConfiguration.class);

    @Test
    void verifyWhenNoDatasourceUrlThenEachContextGetsItsOwnInMemoryH2() {
        runner.run(first -> {
            AccountRepository firstAccounts = first.getBean(AccountRepository.class);
            firstAccounts.deposit("alice", 10);
            String firstUrl = first.getBean(HikariDataSource.class).getJdbcUrl();

            runner.run(second -> {
                assertThat(second.getBean(HikariDataSource.class).getJdbcUrl())
                        .startsWith("jdbc:h2:mem:")
                        .isNotEqualTo(firstUrl);
                assertThat(second.getBean(AccountRepository.class).balance("alice"))
                        .isZero();
            });

            assertThat(firstUrl).startsWith("jdbc:h2:mem:");
            assertThat(firstAccounts.balance("alice")).isEqualTo(10);
        });
    }

    @Test
    void verifyWhenDatasourceUrlConfiguredThenContextsUseThatDatabase() {
        String url = "spring.datasource.url=jdbc:h2:mem:configured-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

        runner.withPropertyValues(url).run(first -> {
            first.getBean(AccountRepository.class).deposit("bob", 7);

            runner.withPropertyValues(url).run(second -> assertThat(
                            second.getBean(AccountRepository.class).balance("bob"))
                    .isEqualTo(7));
        });
    }

    @Test
    void verifyWhenClockBeanPresentThenItStampsUpdatedAt() {
        Instant fixed = Instant.parse("2030-01-02T03:04:05Z");

        runner.withBean(Clock.class, () -> Clock.fixed(fixed, ZoneOffset.UTC)).run(context -> {
            AccountRepository accounts = context.getBean(AccountRepository.class);
            accounts.balance("carol");

            assertThat(accounts.find("carol")).contains(new Account("carol", 0, fixed));
        });
    }

    @Test
    void verifyWhenContextStartsThenFlywayHasMigratedTheSchema() {
        runner.run(context -> assertThat(JdbcClient.create(context.getBean(DataSource.class))
                        .sql(
                                "SELECT \"version\" FROM \"flyway_schema_history\" WHERE \"success\" AND \"version\" IS NOT NULL")
                        .query(String.class)
                        .list())
                .containsExactly("1", "2", "3"));
    }

    @Test
    void verifyWhenIdempotencySettingsGivenThenBoundAndNonPositiveRefused() {
        runner.withPropertyValues(
                        "spiffeidt.account.idempotency-retention=2h", "spiffeidt.account.idempotency-purge-interval=5s")
                .run(context -> assertThat(context.getBean(AccountProperties.class))
                        .isEqualTo(new AccountProperties(Duration.ofHours(2), Duration.ofSeconds(5))));
        runner.run(context ->
                assertThat(context.getBean(AccountProperties.class)).isEqualTo(AccountProperties.defaults()));
        runner.withPropertyValues("spiffeidt.account.idempotency-retention=0s")
                .run(context -> assertThat(context).hasFailed());
    }
}
