package io.spiffeidt.asserting.introspection;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every database must do for {@link JdbcIntrospectionStore}: run by {@code
 * JdbcIntrospectionStoreH2Tests} (embedded H2) and {@code JdbcIntrospectionStorePostgresIT}. Keys
 * are fresh per scenario, so a reused database does not matter.
 */
abstract class JdbcIntrospectionStoreScenarios {

    HikariDataSource dataSource;
    final MutableClock clock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));

    abstract HikariDataSource openDataSource();

    @BeforeEach
    void migrate() {
        dataSource = openDataSource();
        JdbcIntrospectionStore.migrate(dataSource);
    }

    @AfterEach
    void close() {
        if (dataSource != null) {
            dataSource.close();
        }
    }

    JdbcIntrospectionStore<IntrospectionEntry> dvidStore() {
        return new JdbcIntrospectionStore<>(
                dataSource, "dvid", IntrospectionEntry.JDBC_MAPPING, clock, Duration.ofMinutes(1));
    }

    static String freshKey() {
        return "jti-" + UUID.randomUUID();
    }

    static OAuthProof proof(String tag) {
        // a large proof text, as real ones are (tens of kilobytes of hex)
        return new OAuthProof(
                "header.payload." + tag, "{\"rounds\":\"" + "ab".repeat(20_000) + "\"}", "{\"kid\":\"k1\"}");
    }

    @Test
    void putWhenOwnerOverItsBoundThenItsEntriesThatExpireFirstGoAndOtherOwnersStay() {
        JdbcIntrospectionStore<IntrospectionEntry> store = new JdbcIntrospectionStore<>(
                dataSource, "dvid", IntrospectionEntry.JDBC_MAPPING, clock, Duration.ofMinutes(1), 2);
        String owner = "owner-" + UUID.randomUUID();
        String other = "other-" + UUID.randomUUID();
        String kept = freshKey();
        store.put(
                kept,
                other,
                new IntrospectionEntry(proof("other"), null),
                clock.instant().plusSeconds(60));
        String[] keys = new String[5];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = freshKey();
            store.put(
                    keys[i],
                    owner,
                    new IntrospectionEntry(null, "pending-" + i),
                    clock.instant().plusSeconds(60 + i));
        }

        assertThat(store.get(kept)).isPresent();
        assertThat(store.get(keys[0])).isEmpty();
        assertThat(store.get(keys[2])).isEmpty();
        assertThat(store.get(keys[3])).isPresent();
        assertThat(store.get(keys[4]).orElseThrow().pendingOAuthToken()).isEqualTo("pending-4");
    }

    @Test
    void anEntryWrittenByOneReplicaIsReadByAnother() {
        String key = freshKey();
        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(proof("one"), null),
                        clock.instant().plusSeconds(120));

        IntrospectionEntry read = dvidStore().get(key).orElseThrow();

        assertThat(read.introspection()).isEqualTo(proof("one"));
        assertThat(read.pendingOAuthToken()).isNull();
    }

    @Test
    void aPendingTokenWithoutProofRoundTrips() {
        String key = freshKey();
        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(null, "oauth-token"),
                        clock.instant().plusSeconds(120));

        IntrospectionEntry read = dvidStore().get(key).orElseThrow();

        assertThat(read.introspection()).isNull();
        assertThat(read.pendingOAuthToken()).isEqualTo("oauth-token");
    }

    @Test
    void anUnknownKeyIsEmpty() {
        assertThat(dvidStore().get(freshKey())).isEmpty();
    }

    @Test
    void anExpiredEntryIsNotReturned() {
        String key = freshKey();
        JdbcIntrospectionStore<IntrospectionEntry> store = dvidStore();
        store.put(key, new IntrospectionEntry(proof("x"), null), clock.instant().plusSeconds(120));

        clock.advance(Duration.ofSeconds(120));

        assertThat(store.get(key)).isEmpty();
    }

    @Test
    void replaceStoresTheProofOfALiveEntryForEveryReplica() {
        String key = freshKey();
        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(null, "oauth-token"),
                        clock.instant().plusSeconds(120));

        dvidStore().replace(key, new IntrospectionEntry(proof("lazy"), null));

        IntrospectionEntry read = dvidStore().get(key).orElseThrow();
        assertThat(read.introspection()).isEqualTo(proof("lazy"));
        assertThat(read.pendingOAuthToken()).isNull();
    }

    @Test
    void replaceOfAnAbsentKeyAddsNothing() {
        String key = freshKey();

        dvidStore().replace(key, new IntrospectionEntry(proof("lazy"), null));

        assertThat(dvidStore().get(key)).isEmpty();
    }

    @Test
    void aSecondPutOfTheSameKeyReplacesTheEntry() {
        String key = freshKey();
        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(proof("first"), null),
                        clock.instant().plusSeconds(10));

        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(proof("second"), null),
                        clock.instant().plusSeconds(120));
        clock.advance(Duration.ofSeconds(60));

        assertThat(dvidStore().get(key).orElseThrow().introspection()).isEqualTo(proof("second"));
    }

    @Test
    void kindsDoNotSeeEachOthersEntries() {
        String key = freshKey();
        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(proof("dvid"), null),
                        clock.instant().plusSeconds(120));
        JdbcIntrospectionStore<IntrospectionEntry> idMode = new JdbcIntrospectionStore<>(
                dataSource, "id-mode", IntrospectionEntry.JDBC_MAPPING, clock, Duration.ofMinutes(1));

        assertThat(idMode.get(key)).isEmpty();
        idMode.put(
                key,
                new IntrospectionEntry(proof("id-mode"), null),
                clock.instant().plusSeconds(120));
        assertThat(idMode.get(key).orElseThrow().introspection()).isEqualTo(proof("id-mode"));
        assertThat(dvidStore().get(key).orElseThrow().introspection()).isEqualTo(proof("dvid"));
    }

    @Test
    void purgeDeletesOnlyExpiredEntries() {
        String expired = freshKey();
        String live = freshKey();
        JdbcIntrospectionStore<IntrospectionEntry> store = dvidStore();
        store.put(
                expired,
                new IntrospectionEntry(proof("old"), null),
                clock.instant().plusSeconds(10));
        store.put(
                live,
                new IntrospectionEntry(proof("new"), null),
                clock.instant().plusSeconds(600));
        clock.advance(Duration.ofSeconds(30));

        int deleted = store.purgeExpired();

        assertThat(deleted).isGreaterThanOrEqualTo(1);
        clock.advance(Duration.ofSeconds(-30));
        assertThat(store.get(expired)).isEmpty();
        assertThat(store.get(live)).isPresent();
    }

    @Test
    void migratingAgainChangesNothing() {
        String key = freshKey();
        dvidStore()
                .put(
                        key,
                        new IntrospectionEntry(proof("kept"), null),
                        clock.instant().plusSeconds(120));

        JdbcIntrospectionStore.migrate(dataSource);

        assertThat(dvidStore().get(key)).isPresent();
    }
}
