package io.spiffeidt.targetwl.account;

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
    String countSessionsWaitingForALock() {
        // H2 leaves BLOCKER_ID empty while a statement waits on a unique-key lock; while the test holds
        // the creating transaction open, a write on account that is still running is waiting for it
        return "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_STATE = 'RUNNING'"
                + " AND (EXECUTING_STATEMENT LIKE 'MERGE INTO account %'"
                + " OR EXECUTING_STATEMENT LIKE 'UPDATE account %')";
    }

    @Override
    void dropDatabase(HikariDataSource dataSource) {
        JdbcClient.create(dataSource).sql("SHUTDOWN").update();
    }
}
