package io.spiffeidt.asserting.introspection;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The JDBC introspection stores ({@code spiffeidt.asserting.introspection.store=jdbc}): one table in
 * the database of {@link JdbcIntrospectionProperties}, shared by every replica. The default ({@code
 * memory}) keeps the in-memory stores of the mode configurations.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = JdbcIntrospectionConfiguration.STORE_PROPERTY, havingValue = "jdbc")
public class JdbcIntrospectionConfiguration {

    /** {@code memory} (default) or {@code jdbc}. */
    public static final String STORE_PROPERTY = "spiffeidt.asserting.introspection.store";

    private static final Logger log = LoggerFactory.getLogger(JdbcIntrospectionConfiguration.class);

    /**
     * The store's own connection pool; deliberately not a {@code DataSource} bean, so that no
     * DataSource or Flyway auto-configuration of the application acts on it.
     */
    public static final class IntrospectionDatabase implements AutoCloseable {
        private final HikariDataSource dataSource;

        IntrospectionDatabase(HikariDataSource dataSource) {
            this.dataSource = dataSource;
        }

        /** The pool. */
        public HikariDataSource dataSource() {
            return dataSource;
        }

        @Override
        public void close() {
            dataSource.close();
        }
    }

    @Bean
    IntrospectionDatabase introspectionDatabase(JdbcIntrospectionProperties properties) {
        if (properties.url() == null || properties.url().isBlank()) {
            throw new IllegalStateException(
                    STORE_PROPERTY + "=jdbc needs spiffeidt.asserting.introspection.jdbc.url (a JDBC URL)");
        }
        HikariDataSource ds = new HikariDataSource();
        ds.setPoolName("introspection");
        ds.setJdbcUrl(properties.url());
        ds.setUsername(properties.username());
        ds.setPassword(properties.password());
        ds.setMaximumPoolSize(properties.maxPoolSize());
        ds.setConnectionTimeout(properties.connectionTimeout().toMillis());
        try {
            JdbcIntrospectionStore.migrate(ds);
        } catch (RuntimeException e) {
            ds.close();
            throw e;
        }
        log.info("introspection store: JDBC at {}", properties.url());
        return new IntrospectionDatabase(ds);
    }

    @Bean
    IntrospectionStore<IntrospectionEntry> dvidIntrospectionStore(
            IntrospectionDatabase db,
            JdbcIntrospectionProperties properties,
            IntrospectionProperties bounds,
            Clock clock) {
        return store(db, "dvid", properties, bounds, clock);
    }

    @Bean
    IntrospectionStore<IntrospectionEntry> idModeIntrospectionStore(
            IntrospectionDatabase db,
            JdbcIntrospectionProperties properties,
            IntrospectionProperties bounds,
            Clock clock) {
        return store(db, "id-mode", properties, bounds, clock);
    }

    @Bean
    IntrospectionStore<IntrospectionEntry> anonModeIntrospectionStore(
            IntrospectionDatabase db,
            JdbcIntrospectionProperties properties,
            IntrospectionProperties bounds,
            Clock clock) {
        return store(db, "anon-mode", properties, bounds, clock);
    }

    private static IntrospectionStore<IntrospectionEntry> store(
            IntrospectionDatabase db,
            String mode,
            JdbcIntrospectionProperties properties,
            IntrospectionProperties bounds,
            Clock clock) {
        return new JdbcIntrospectionStore<>(
                db.dataSource(),
                mode,
                IntrospectionEntry.JDBC_MAPPING,
                clock,
                properties.purgeInterval(),
                bounds.maxEntriesPerUser());
    }
}
