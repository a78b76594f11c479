package io.spiffeidt.asserting.introspection;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.server.UnreachableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * An {@link IntrospectionStore} in a SQL database (PostgreSQL in deployments, H2 in tests), shared by
 * the replicas of the asserting workload: a document minted by one replica is introspected by any
 * other. One table holds every kind of entry (DVID, ID-Mode root, Anon-Mode root); each store
 * instance reads and writes only its {@code kind}. Expired entries are never returned and are
 * deleted at most once per purge interval, on a write.
 *
 * <p>With {@code spiffeidt.dvid.zkp: lazy} the pending OAuth token of an entry is kept in
 * the database until its proof is made (the replicas must be able to make it).
 *
 * <p>Thread safety: thread safe (one connection from the pool per call).
 *
 * @param <V> the entry: an OAuth proof record and/or a pending OAuth token
 */
public final class JdbcIntrospectionStore<V> implements IntrospectionStore<V> {

    /** Where the store's Flyway migrations live (not {@code db/migration}: target-wl's). */
    public static final String MIGRATIONS = "classpath:db/introspection";

    /** Flyway's history table of this store. */
    public static final String HISTORY_TABLE = "introspection_schema_history";

    /**
     * How an entry maps to the table's columns.
     *
     * @param proof the entry's proof record (nullable)
     * @param pendingToken the entry's pending OAuth token (nullable)
     * @param create makes an entry from a proof record and a pending token
     */
    public record Mapping<V>(
            Function<V, OAuthProof> proof, Function<V, String> pendingToken, BiFunction<OAuthProof, String, V> create) {

        public Mapping {
            Objects.requireNonNull(proof, "proof");
            Objects.requireNonNull(pendingToken, "pendingToken");
            Objects.requireNonNull(create, "create");
        }
    }

    private final DataSource dataSource;
    private final String kind;
    private final Mapping<V> mapping;
    private final Clock clock;
    private final Duration purgeInterval;
    private final AtomicReference<Instant> lastPurge;
    private final int maxEntriesPerOwner;

    /**
     * @param dataSource the shared database (migrated with {@link #migrate(DataSource)})
     * @param kind which entries this store holds (e.g. {@code dvid}), at most 32 characters
     * @param mapping entry to columns and back
     * @param clock the time that decides expiry
     * @param purgeInterval the least time between two deletions of expired entries
     */
    public JdbcIntrospectionStore(
            DataSource dataSource, String kind, Mapping<V> mapping, Clock clock, Duration purgeInterval) {
        this(dataSource, kind, mapping, clock, purgeInterval, Integer.MAX_VALUE);
    }

    /**
     * @param dataSource the shared database (migrated with {@link #migrate(DataSource)})
     * @param kind which entries this store holds (e.g. {@code dvid}), at most 32 characters
     * @param mapping entry to columns and back
     * @param clock the time that decides expiry
     * @param purgeInterval the least time between two deletions of expired entries
     * @param maxEntriesPerOwner the most entries one owner holds; a put over it deletes the owner's
     *     entries that expire first
     */
    public JdbcIntrospectionStore(
            DataSource dataSource,
            String kind,
            Mapping<V> mapping,
            Clock clock,
            Duration purgeInterval,
            int maxEntriesPerOwner) {
        if (maxEntriesPerOwner < 1) {
            throw new IllegalArgumentException("maxEntriesPerOwner must be positive");
        }
        this.maxEntriesPerOwner = maxEntriesPerOwner;
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.kind = Objects.requireNonNull(kind, "kind");
        if (kind.isEmpty() || kind.length() > 32) {
            throw new IllegalArgumentException("kind must have 1..32 characters");
        }
        this.mapping = Objects.requireNonNull(mapping, "mapping");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.purgeInterval = Objects.requireNonNull(purgeInterval, "purgeInterval");
        this.lastPurge = new AtomicReference<>(clock.instant());
    }

    /** Creates or updates the store's table (idempotent; replicas may call it concurrently). */
    public static void migrate(DataSource dataSource) {
        Flyway.configure()
                .dataSource(dataSource)
                .locations(MIGRATIONS)
                .table(HISTORY_TABLE)
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }

    @Override
    public void put(String key, String owner, V value, Instant expiresAt) {
        Objects.requireNonNull(owner, "owner");
        OAuthProof proof = mapping.proof().apply(value);
        String pending = mapping.pendingToken().apply(value);
        try (Connection c = dataSource.getConnection()) {
            // a key is minted once; a second put (same key) replaces the entry, as the in-memory store
            if (update(c, key, owner, proof, pending, expiresAt) == 0) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO introspection_entry "
                        + "(kind, entry_key, owner, proof_msg, proof_zkp, proof_idp_key, pending_token, expires_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                    ps.setString(1, kind);
                    ps.setString(2, key);
                    ps.setString(3, owner);
                    setProof(ps, 4, proof);
                    ps.setString(7, pending);
                    ps.setTimestamp(8, Timestamp.from(expiresAt));
                    ps.executeUpdate();
                } catch (SQLException duplicate) {
                    // another replica inserted the same key meanwhile
                    if (update(c, key, owner, proof, pending, expiresAt) == 0) {
                        throw duplicate;
                    }
                }
            }
            trimOwner(c, owner);
            purgeIfDue(c);
        } catch (SQLException e) {
            throw failure("write", e);
        }
    }

    /**
     * Deletes {@code owner}'s entries beyond its newest {@code maxEntriesPerOwner} (by expiry, then
     * key): one user's mints replace their own records, never another user's. Replicas that trim the
     * same owner at once delete the same rows.
     */
    private void trimOwner(Connection c, String owner) throws SQLException {
        if (maxEntriesPerOwner == Integer.MAX_VALUE) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM introspection_entry WHERE kind = ? AND owner = ?"
                + " AND entry_key NOT IN (SELECT entry_key FROM introspection_entry WHERE kind = ? AND owner = ?"
                + " ORDER BY expires_at DESC, entry_key DESC FETCH FIRST " + maxEntriesPerOwner + " ROWS ONLY)")) {
            ps.setString(1, kind);
            ps.setString(2, owner);
            ps.setString(3, kind);
            ps.setString(4, owner);
            ps.executeUpdate();
        }
    }

    @Override
    public Optional<V> get(String key) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT proof_msg, proof_zkp, proof_idp_key, pending_token "
                        + "FROM introspection_entry WHERE kind = ? AND entry_key = ? AND expires_at > ?")) {
            ps.setString(1, kind);
            ps.setString(2, key);
            ps.setTimestamp(3, Timestamp.from(clock.instant()));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String msg = rs.getString(1);
                OAuthProof proof = msg == null ? null : new OAuthProof(msg, rs.getString(2), rs.getString(3));
                return Optional.of(mapping.create().apply(proof, rs.getString(4)));
            }
        } catch (SQLException e) {
            throw failure("read", e);
        }
    }

    @Override
    public void replace(String key, V value) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "UPDATE introspection_entry SET proof_msg = ?, proof_zkp = ?,"
                                + " proof_idp_key = ?, pending_token = ? WHERE kind = ? AND entry_key = ? AND expires_at > ?")) {
            setProof(ps, 1, mapping.proof().apply(value));
            ps.setString(4, mapping.pendingToken().apply(value));
            ps.setString(5, kind);
            ps.setString(6, key);
            ps.setTimestamp(7, Timestamp.from(clock.instant()));
            ps.executeUpdate();
        } catch (SQLException e) {
            throw failure("write", e);
        }
    }

    /** Deletes every expired entry of this kind now; returns how many. */
    public int purgeExpired() {
        try (Connection c = dataSource.getConnection()) {
            return purge(c);
        } catch (SQLException e) {
            throw failure("purge", e);
        }
    }

    private int update(Connection c, String key, String owner, OAuthProof proof, String pending, Instant expiresAt)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE introspection_entry SET owner = ?, proof_msg = ?,"
                        + " proof_zkp = ?, proof_idp_key = ?, pending_token = ?, expires_at = ? WHERE kind = ? AND entry_key = ?")) {
            ps.setString(1, owner);
            setProof(ps, 2, proof);
            ps.setString(5, pending);
            ps.setTimestamp(6, Timestamp.from(expiresAt));
            ps.setString(7, kind);
            ps.setString(8, key);
            return ps.executeUpdate();
        }
    }

    /**
     * A failed statement: {@code UPSTREAM_UNAVAILABLE} (503 with {@code Retry-After}, docs/formats/common.md
     * §6) when the database could not be reached or the connection broke (a connection exception, SQLSTATE
     * class 08, an operator shutdown, 57P, or the pool's time-out), otherwise an {@link
     * IllegalStateException} (a fault of this store: 500).
     */
    static RuntimeException failure(String what, SQLException e) {
        String state = e.getSQLState();
        if (e instanceof SQLTransientConnectionException
                || e instanceof SQLNonTransientConnectionException
                || e instanceof SQLRecoverableException
                || (state != null && (state.startsWith("08") || state.startsWith("57P")))) {
            return new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE,
                    "introspection store unavailable (" + state + ")",
                    new UnreachableException("introspection database", e));
        }
        return new IllegalStateException("introspection store: " + what + " failed (" + state + ")", e);
    }

    private void purgeIfDue(Connection c) throws SQLException {
        Instant now = clock.instant();
        Instant last = lastPurge.get();
        if (!now.isBefore(last.plus(purgeInterval)) && lastPurge.compareAndSet(last, now)) {
            purge(c);
        }
    }

    private int purge(Connection c) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM introspection_entry WHERE kind = ? AND expires_at <= ?")) {
            ps.setString(1, kind);
            ps.setTimestamp(2, Timestamp.from(clock.instant()));
            return ps.executeUpdate();
        }
    }

    private static void setProof(PreparedStatement ps, int first, OAuthProof proof) throws SQLException {
        ps.setString(first, proof == null ? null : proof.msg());
        ps.setString(first + 1, proof == null ? null : proof.zkp());
        ps.setString(first + 2, proof == null ? null : proof.idpKey());
    }

    @Override
    public String toString() {
        return "JdbcIntrospectionStore[" + kind + "]";
    }
}
