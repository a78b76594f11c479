package io.spiffeidt.target.account;

import com.zaxxer.hikari.HikariDataSource;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The account scenarios against an embedded in-memory H2 database of its own. */
class AccountRepositoryTests extends AccountRepositoryScenarios {

    @Override
    HikariDataSource openDataSource() {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl("jdbc:h2:mem:accounts-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        dataSource.setMaximumPoolSize(10);
        return dataSource;
    }

    @Override
    void dropDatabase(HikariDataSource dataSource) {
        JdbcClient.create(dataSource).sql("SHUTDOWN").update();
    }
}
