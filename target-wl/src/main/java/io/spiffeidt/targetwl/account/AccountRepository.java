package io.spiffeidt.targetwl.account;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.server.Deadline;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The target workload's account store (docs/design.md "Target database"): table {@code account(user_id,
 * balance, updated_at)}, schema by Flyway ({@code db/migration/V1__account.sql}), H2 or PostgreSQL.
 *
 * <p>A user seen for the first time gets an account with balance 0. Creation is race-safe: on
 * PostgreSQL {@code INSERT ... ON CONFLICT DO NOTHING}, on H2 a standard {@code MERGE} whose
 * duplicate-key loss to a concurrent creator is ignored (H2 rolls back only the statement). A deposit
 * is one transaction that adds the amount in a single {@code UPDATE ... SET balance = balance + ?}
 * guarded by {@code balance <= Long.MAX_VALUE - amount} in its {@code WHERE} clause, so concurrent
 * deposits never lose an update and an overflowing deposit changes nothing.
 *
 * <p>A deposit with an {@code Idempotency-Key} (docs/formats/common.md "Idempotent deposits") is
 * applied at most once per account and key within the retention: the key, the fingerprint of the
 * request and the new balance go into {@code idempotency_key} ({@code V3__idempotency_key.sql}) in the
 * credit's own transaction, so a key is stored exactly when its credit is committed. A retry finds
 * the row and answers its balance; a concurrent first use credits too, then loses the insert of the
 * key (PostgreSQL {@code ON CONFLICT DO NOTHING}, H2 a duplicate key), rolls its credit back and
 * answers the winner's balance. Both transactions credit the same account row first, so they are
 * serialized by its lock and never deadlock on the key.
 *
 * <p>Thread safety: safe for concurrent use; all state is in the database (and the time of the last
 * purge, an atomic).
 */
public final class AccountRepository {

    /** The largest accepted issuer, in UTF-8 bytes (issuer and user ID together stay in one B-tree entry). */
    public static final int MAX_ISSUER_BYTES = 512;

    /** The largest accepted user ID, in UTF-8 bytes (keeps the key inside PostgreSQL's B-tree limit). */
    public static final int MAX_USER_ID_BYTES = 2048;

    /**
     * The largest issuer, user ID and idempotency key together, in UTF-8 bytes: the primary key of
     * {@code idempotency_key} must fit one PostgreSQL B-tree entry (2704 bytes with its headers).
     */
    public static final int MAX_IDEMPOTENCY_ENTRY_BYTES = 2600;

    /** How often a deposit retries when the account vanishes or appears under it (a rolled back creator). */
    private static final int ATTEMPTS = 3;

    private static final String SELECT =
            "SELECT user_id, balance, updated_at FROM account WHERE issuer = ? AND user_id = ?";

    private static final String UPDATE =
            "UPDATE account SET balance = balance + ?, updated_at = ? WHERE issuer = ? AND user_id = ? AND balance <= ?";

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final Dialect dialect;
    private final Duration retention;
    private final long purgeIntervalNanos;
    private final AtomicLong lastPurge;

    /**
     * Creates the repository; reads the database product name once to pick the SQL dialect.
     *
     * @param dataSource an H2 or PostgreSQL data source whose schema Flyway has migrated
     * @param transactionManager the transaction manager of that data source (deposits participate in
     *     a surrounding transaction if there is one)
     * @param clock the source of {@code updated_at}
     * @throws IllegalArgumentException if the database is neither H2 nor PostgreSQL
     * @throws org.springframework.dao.DataAccessException if the database cannot be reached
     */
    public AccountRepository(DataSource dataSource, PlatformTransactionManager transactionManager, Clock clock) {
        this(dataSource, transactionManager, clock, AccountProperties.defaults());
    }

    /**
     * As {@link #AccountRepository(DataSource, PlatformTransactionManager, Clock)}, with the retention
     * of idempotency keys and the interval of their purge from {@code properties}.
     */
    public AccountRepository(
            DataSource dataSource,
            PlatformTransactionManager transactionManager,
            Clock clock,
            AccountProperties properties) {
        Objects.requireNonNull(dataSource, "dataSource");
        this.jdbc = JdbcClient.create(dataSource);
        this.transactions = new TransactionTemplate(Objects.requireNonNull(transactionManager, "transactionManager"));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.dialect = Dialect.of(dataSource);
        this.retention = properties.idempotencyRetention();
        this.purgeIntervalNanos = properties.idempotencyPurgeInterval().toNanos();
        this.lastPurge = new AtomicLong(System.nanoTime() - purgeIntervalNanos);
    }

    /**
     * The balance of a user, creating the account with balance 0 when the user is seen for the first
     * time.
     *
     * @param userId the delegated user ({@code dpr})
     * @return the balance, never negative
     * @throws InvalidUserIdException if the user ID is not acceptable (see {@link #MAX_USER_ID_BYTES})
     * @throws org.springframework.dao.DataAccessException on a database failure
     */
    public long balance(String userId) {
        return balance("", userId);
    }

    /**
     * The balance of user {@code userId} of OAuth issuer {@code issuer} (an account is the pair:
     * {@code alice} at one IdP is not {@code alice} at another), created with 0 on first sight.
     *
     * @param issuer the delegation's {@code dpa}
     * @param userId the delegated user ({@code dpr})
     * @return the balance, never negative
     * @throws InvalidUserIdException if the issuer or user ID is not acceptable
     */
    public long balance(String issuer, String userId) {
        checkIssuer(issuer);
        checkUserId(userId);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<Account> account = select(issuer, userId);
            if (account.isPresent()) {
                return account.get().balance();
            }
            createIfAbsent(issuer, userId);
        }
        throw new ConcurrencyFailureException("account creation was rolled back concurrently " + ATTEMPTS + " times");
    }

    /**
     * Credits a user's account in one transaction, creating the account first when the user is seen
     * for the first time.
     *
     * @param userId the delegated user ({@code dpr})
     * @param amount a positive amount
     * @return the new balance
     * @throws InvalidUserIdException if the user ID is not acceptable
     * @throws InvalidAmountException if {@code amount <= 0} or the new balance would exceed {@link
     *     Long#MAX_VALUE}; the balance is unchanged
     * @throws org.springframework.dao.DataAccessException on a database failure
     */
    public long deposit(String userId, long amount) {
        return deposit("", userId, amount);
    }

    /**
     * Credits the account of user {@code userId} of OAuth issuer {@code issuer} (see {@link
     * #balance(String, String)}).
     *
     * @throws InvalidUserIdException if the issuer or user ID is not acceptable
     * @throws InvalidAmountException if {@code amount <= 0} or the balance would overflow
     */
    public long deposit(String issuer, String userId, long amount) {
        checkIssuer(issuer);
        checkUserId(userId);
        if (amount <= 0) {
            throw new InvalidAmountException("amount must be positive");
        }
        long ceiling = Long.MAX_VALUE - amount;
        Long balance = transactions.execute(status -> {
            long credited = depositInTransaction(issuer, userId, amount, ceiling);
            // a caller that has given up must not find its deposit made: roll back after the deadline
            Deadline.checkCurrent("the deposit's commit");
            return credited;
        });
        return Objects.requireNonNull(balance, "deposit returned no balance");
    }

    /**
     * Credits the account of user {@code userId} of issuer {@code issuer} at most once for {@code
     * idempotencyKey} within the retention (see the class comment): a first use credits and
     * remembers the new balance with {@code fingerprint}; a use with the same fingerprint answers that
     * balance and changes nothing; a use with another fingerprint fails and changes nothing. An expired
     * key is forgotten, so its next use is a new deposit.
     *
     * @param fingerprint the SHA-256 (64 lowercase hex digits) of the canonical request
     * @return the balance after the (first) credit
     * @throws InvalidUserIdException if the issuer or user ID is not acceptable
     * @throws InvalidAmountException if {@code amount <= 0} or the balance would overflow
     * @throws AssertionException {@link ErrorCode#IDEMPOTENCY_KEY_MISMATCH} if the key was used for
     *     another request, {@link ErrorCode#IDEMPOTENCY_KEY_INVALID} if issuer, user and key together
     *     exceed {@link #MAX_IDEMPOTENCY_ENTRY_BYTES}
     */
    public long deposit(String issuer, String userId, long amount, IdempotencyKey idempotencyKey, String fingerprint) {
        checkIssuer(issuer);
        checkUserId(userId);
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        if (fingerprint == null || !fingerprint.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("fingerprint must be 64 lowercase hex digits");
        }
        if (amount <= 0) {
            throw new InvalidAmountException("amount must be positive");
        }
        String key = idempotencyKey.value();
        if (utf8Length(issuer) + utf8Length(userId) + key.length() > MAX_IDEMPOTENCY_ENTRY_BYTES) {
            throw new AssertionException(
                    ErrorCode.IDEMPOTENCY_KEY_INVALID, IdempotencyKey.HEADER + " is too long for this account");
        }
        long ceiling = Long.MAX_VALUE - amount;
        Long balance = transactions.execute(status -> {
            OffsetDateTime now = now();
            // an expired key is forgotten before it is looked up: its next use is a new deposit
            jdbc.sql(
                            "DELETE FROM idempotency_key WHERE issuer = ? AND user_id = ? AND idem_key = ? AND created_at <= ?")
                    .params(issuer, userId, key, now.minus(retention))
                    .update();
            Optional<StoredKey> stored = selectKey(issuer, userId, key);
            if (stored.isPresent()) {
                return stored.get().answer(fingerprint);
            }
            long credited = depositInTransaction(issuer, userId, amount, ceiling);
            if (!insertKey(issuer, userId, key, fingerprint, credited, now)) {
                // a concurrent first use of the key committed while this credit waited for the account
                status.setRollbackOnly();
                return null;
            }
            Deadline.checkCurrent("the deposit's commit");
            return credited;
        });
        if (balance == null) {
            balance = selectKey(issuer, userId, key)
                    .orElseThrow(() -> new ConcurrencyFailureException("the key's first use vanished"))
                    .answer(fingerprint);
        }
        purgeExpiredKeysNowAndThen();
        return balance;
    }

    /**
     * Deletes every expired idempotency key, at most once per purge interval (a deposit with a key
     * calls it; the other deposits leave the table alone).
     *
     * @return how many keys were deleted (0 when another purge was recent)
     */
    int purgeExpiredKeysNowAndThen() {
        long last = lastPurge.get();
        long now = System.nanoTime();
        if (now - last < purgeIntervalNanos || !lastPurge.compareAndSet(last, now)) {
            return 0;
        }
        return jdbc.sql("DELETE FROM idempotency_key WHERE created_at <= ?")
                .param(now().minus(retention))
                .update();
    }

    /** The number of idempotency keys stored for an account, expired or not (for tests and operators). */
    public long idempotencyKeys(String issuer, String userId) {
        return jdbc.sql("SELECT COUNT(*) FROM idempotency_key WHERE issuer = ? AND user_id = ?")
                .params(issuer, userId)
                .query(Long.class)
                .single();
    }

    /** A stored key: the request it was first used for and the answer then. */
    private record StoredKey(String fingerprint, long balance) {

        long answer(String requested) {
            if (!fingerprint.equals(requested)) {
                throw new AssertionException(
                        ErrorCode.IDEMPOTENCY_KEY_MISMATCH,
                        IdempotencyKey.HEADER + " was already used for a different deposit");
            }
            return balance;
        }
    }

    private Optional<StoredKey> selectKey(String issuer, String userId, String key) {
        return jdbc.sql(
                        "SELECT fingerprint, balance FROM idempotency_key WHERE issuer = ? AND user_id = ? AND idem_key = ?")
                .params(issuer, userId, key)
                .query((rs, row) -> new StoredKey(rs.getString("fingerprint"), rs.getLong("balance")))
                .optional();
    }

    /** Stores a first use; false when the key is already stored (committed by a concurrent first use). */
    private boolean insertKey(
            String issuer, String userId, String key, String fingerprint, long balance, OffsetDateTime now) {
        String insert = "INSERT INTO idempotency_key (issuer, user_id, idem_key, fingerprint, balance, created_at)"
                + " VALUES (?, ?, ?, ?, ?, ?)";
        return switch (dialect) {
            case POSTGRESQL ->
                jdbc.sql(insert + " ON CONFLICT (issuer, user_id, idem_key) DO NOTHING")
                                .params(issuer, userId, key, fingerprint, balance, now)
                                .update()
                        == 1;
            case H2 -> {
                try {
                    jdbc.sql(insert)
                            .params(issuer, userId, key, fingerprint, balance, now)
                            .update();
                    yield true;
                } catch (DuplicateKeyException usedConcurrently) {
                    // H2 rolls back only the statement; the caller rolls back the credit
                    yield false;
                }
            }
        };
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * The account of a user, without creating it.
     *
     * @param userId the delegated user ({@code dpr})
     * @return the account, or empty if the user has never been seen
     * @throws InvalidUserIdException if the user ID is not acceptable
     * @throws org.springframework.dao.DataAccessException on a database failure
     */
    public Optional<Account> find(String userId) {
        return find("", userId);
    }

    /** The account of user {@code userId} of issuer {@code issuer}, without creating it. */
    public Optional<Account> find(String issuer, String userId) {
        checkIssuer(issuer);
        checkUserId(userId);
        return select(issuer, userId);
    }

    private long depositInTransaction(String issuer, String userId, long amount, long ceiling) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<Long> credited = credit(issuer, userId, amount, ceiling);
            if (credited.isPresent()) {
                return credited.get();
            }
            // Nothing updated: the account is missing, or crediting it would overflow. Each statement
            // reads the latest committed state, so an account created meanwhile is simply retried.
            Optional<Account> account = select(issuer, userId);
            if (account.isEmpty()) {
                createIfAbsent(issuer, userId);
            } else if (account.get().balance() > ceiling) {
                throw new InvalidAmountException("deposit would overflow the balance");
            }
        }
        throw new ConcurrencyFailureException("account creation was rolled back concurrently " + ATTEMPTS + " times");
    }

    /** The new balance, or empty when no row was updated. */
    private Optional<Long> credit(String issuer, String userId, long amount, long ceiling) {
        OffsetDateTime now = now();
        return switch (dialect) {
            case POSTGRESQL ->
                jdbc.sql(UPDATE + " RETURNING balance")
                        .params(amount, now, issuer, userId, ceiling)
                        .query(Long.class)
                        .optional();
            case H2 -> {
                int updated = jdbc.sql(UPDATE)
                        .params(amount, now, issuer, userId, ceiling)
                        .update();
                // the row stays locked by this transaction, so the read sees exactly this credit
                yield updated == 0 ? Optional.empty() : select(issuer, userId).map(Account::balance);
            }
        };
    }

    private void createIfAbsent(String issuer, String userId) {
        OffsetDateTime now = now();
        switch (dialect) {
            case POSTGRESQL ->
                jdbc.sql("INSERT INTO account (issuer, user_id, balance, updated_at) VALUES (?, ?, 0, ?)"
                                + " ON CONFLICT (issuer, user_id) DO NOTHING")
                        .params(issuer, userId, now)
                        .update();
            case H2 -> {
                try {
                    jdbc.sql("MERGE INTO account a USING (VALUES (CAST(? AS VARCHAR(512)), CAST(? AS VARCHAR(2048)),"
                                    + " CAST(? AS TIMESTAMP WITH TIME ZONE))) s (issuer, user_id, updated_at)"
                                    + " ON a.issuer = s.issuer AND a.user_id = s.user_id WHEN NOT MATCHED THEN"
                                    + " INSERT (issuer, user_id, balance, updated_at)"
                                    + " VALUES (s.issuer, s.user_id, 0, s.updated_at)")
                            .params(issuer, userId, now)
                            .update();
                } catch (DuplicateKeyException createdConcurrently) {
                    // another transaction created the account between MERGE's check and its insert
                }
            }
        }
    }

    private Optional<Account> select(String issuer, String userId) {
        return jdbc.sql(SELECT)
                .params(issuer, userId)
                .query(AccountRepository::account)
                .optional();
    }

    private static void checkIssuer(String issuer) {
        if (issuer == null) {
            throw new InvalidUserIdException("issuer is missing");
        }
        if (issuer.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_ISSUER_BYTES) {
            throw new InvalidUserIdException("issuer is longer than " + MAX_ISSUER_BYTES + " bytes");
        }
    }

    private static Account account(ResultSet rs, int row) throws SQLException {
        return new Account(
                rs.getString("user_id"),
                rs.getLong("balance"),
                rs.getObject("updated_at", OffsetDateTime.class).toInstant());
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(Instant.now(clock), ZoneOffset.UTC);
    }

    private static void checkUserId(String userId) {
        if (userId == null || userId.isEmpty()) {
            throw new InvalidUserIdException("user ID is missing");
        }
        if (userId.length() > MAX_USER_ID_BYTES) {
            throw new InvalidUserIdException("user ID is longer than " + MAX_USER_ID_BYTES + " bytes");
        }
        if (userId.indexOf('\0') >= 0) {
            throw new InvalidUserIdException("user ID contains U+0000");
        }
        int bytes;
        try {
            bytes = StandardCharsets.UTF_8
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(userId))
                    .remaining();
        } catch (CharacterCodingException malformed) {
            throw new InvalidUserIdException("user ID is not well-formed UTF-16");
        }
        if (bytes > MAX_USER_ID_BYTES) {
            throw new InvalidUserIdException("user ID is longer than " + MAX_USER_ID_BYTES + " bytes");
        }
    }

    private enum Dialect {
        H2,
        POSTGRESQL;

        static Dialect of(DataSource dataSource) {
            String product;
            try {
                product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
            } catch (MetaDataAccessException e) {
                throw new DataAccessResourceFailureException("cannot read the database product name", e);
            }
            String name = product == null ? "" : product.toLowerCase(Locale.ROOT);
            if (name.equals("h2")) {
                return H2;
            }
            if (name.equals("postgresql")) {
                return POSTGRESQL;
            }
            throw new IllegalArgumentException("unsupported database for accounts: " + product);
        }
    }
}
