package io.spiffeidt.targetwl.account;

import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Wires the {@link AccountRepository} to Spring Boot's auto-configured {@link DataSource} and
 * transaction manager, after Flyway has migrated the schema.
 *
 * <p>The database is chosen by the standard {@code spring.datasource.*} properties. Without a URL,
 * Boot creates an in-memory H2 database with a generated unique name ({@code
 * spring.datasource.generate-unique-name}, on by default), so several application contexts in one
 * JVM never share accounts. For PostgreSQL set {@code spring.datasource.url}, {@code username} and
 * {@code password}. A {@link Clock} bean, if any, stamps {@code updated_at}; otherwise the UTC system
 * clock does.
 *
 * <p>Thread safety: configuration, used once at startup.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AccountProperties.class)
public class AccountConfiguration {

    /**
     * The account repository.
     *
     * @param dataSource the auto-configured data source
     * @param transactionManager the auto-configured transaction manager of that data source
     * @param clock an optional clock bean
     * @param properties the account settings ({@code spiffeidt.account})
     * @return the repository
     */
    @Bean
    @DependsOnDatabaseInitialization
    public AccountRepository accountRepository(
            DataSource dataSource,
            PlatformTransactionManager transactionManager,
            ObjectProvider<Clock> clock,
            AccountProperties properties) {
        return new AccountRepository(
                dataSource, transactionManager, clock.getIfAvailable(Clock::systemUTC), properties);
    }
}
