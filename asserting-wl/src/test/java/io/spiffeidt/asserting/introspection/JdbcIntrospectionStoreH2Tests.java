package io.spiffeidt.asserting.introspection;

import com.zaxxer.hikari.HikariDataSource;
import java.util.UUID;

/** The introspection store scenarios on an embedded H2 database (one fresh database per scenario). */
class JdbcIntrospectionStoreH2Tests extends JdbcIntrospectionStoreScenarios {

    @Override
    HikariDataSource openDataSource() {
        HikariDataSource ds = new HikariDataSource();
        ds.setJdbcUrl("jdbc:h2:mem:introspection-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        ds.setMaximumPoolSize(4);
        return ds;
    }
}
