package io.spiffeidt.targetwl.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.wire.IdempotencyKey;
import io.spiffeidt.testkit.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * The account scenarios every supported database must pass: a subclass supplies a pooled data source
 * (H2 in {@link AccountRepositoryTests}, PostgreSQL in {@link AccountRepositoryPostgresIT}); the
 * schema comes from the production Flyway migration. Every test uses fresh random user IDs, so the
 * scenarios also run against a long-lived database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AccountRepositoryScenarios {

    private static final int THREADS = 8;

    private final SettableClock clock = new SettableClock(Instant.parse("2025-06-01T12:00:00.123456Z"));

    private HikariDataSource dataSource;
    private ExecutorService executor;
    private AccountRepository accounts;

    /** A pool of at least {@value #THREADS} connections to an empty or already migrated database. */
    abstract HikariDataSource openDataSource();

    /** A query counting the sessions of this database that wait for a row lock held by another. */
    abstract String countSessionsWaitingForALock();

    /** Releases what {@link #openDataSource()} created beyond the pool. */
    void dropDatabase(HikariDataSource dataSource) {}

    @BeforeAll
    void startRepository() {
        dataSource = openDataSource();
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        accounts = new AccountRepository(dataSource, new DataSourceTransactionManager(dataSource), clock);
        executor = Executors.newFixedThreadPool(THREADS);
    }

    @AfterAll
    void stopRepository() throws InterruptedException {
        if (executor != null) {
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (dataSource != null) {
            dropDatabase(dataSource);
            dataSource.close();
        }
    }

    @Test
    void verifyWhenUserFirstSeenThenBalanceIsZeroAndAccountIsCreated() {
        String user = newUser();
        assertThat(accounts.find(user)).isEmpty();

        assertThat(accounts.balance(user)).isZero();

        assertThat(accounts.find(user)).contains(new Account(user, 0, clock.instant()));
    }

    @Test
    void verifyWhenSameUserNameAtTwoIssuersThenTwoAccounts() {
        String user = newUser();
        String idpA = "https://idp-a.example";
        String idpB = "https://idp-b.example";

        assertThat(accounts.deposit(idpA, user, 100)).isEqualTo(100);
        assertThat(accounts.deposit(idpB, user, 7)).isEqualTo(7);

        assertThat(accounts.balance(idpA, user)).isEqualTo(100);
        assertThat(accounts.balance(idpB, user)).isEqualTo(7);
        assertThat(accounts.find(user)).isEmpty();
    }

    @Test
    void verifyWhenBalanceReadAgainThenAccountIsKept() {
        String user = newUser();
        accounts.deposit(user, 5);
        Instant credited = clock.instant();
        clock.advance(Duration.ofMinutes(1));

        assertThat(accounts.balance(user)).isEqualTo(5);

        assertThat(accounts.find(user)).contains(new Account(user, 5, credited));
    }

    @Test
    void verifyWhenDepositThenNewBalanceIsReturnedAndStored() {
        String user = newUser();
        accounts.balance(user);

        assertThat(accounts.deposit(user, 100)).isEqualTo(100);
        Instant later = clock.advance(Duration.ofSeconds(7));
        assertThat(accounts.deposit(user, 23)).isEqualTo(123);

        assertThat(accounts.balance(user)).isEqualTo(123);
        assertThat(accounts.find(user)).contains(new Account(user, 123, later));
    }

    @Test
    void verifyWhenDepositForUserNeverSeenThenAccountIsCreatedWithTheAmount() {
        String user = newUser();

        assertThat(accounts.deposit(user, 42)).isEqualTo(42);

        assertThat(accounts.find(user)).contains(new Account(user, 42, clock.instant()));
    }

    @Test
    void verifyWhenUsersDifferOnlyInCaseOrTrailingSpaceThenAccountsAreSeparate() {
        String user = newUser();

        accounts.deposit(user, 1);
        accounts.deposit(user.toUpperCase(Locale.ROOT), 2);
        accounts.deposit(user + " ", 4);

        assertThat(accounts.balance(user)).isEqualTo(1);
        assertThat(accounts.balance(user.toUpperCase(Locale.ROOT))).isEqualTo(2);
        assertThat(accounts.balance(user + " ")).isEqualTo(4);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void verifyWhenAmountNotPositiveThenInvalidAmountAndNoAccountIsCreated(long amount) {
        String user = newUser();

        assertThatThrownBy(() -> accounts.deposit(user, amount))
                .isInstanceOf(InvalidAmountException.class)
                .hasMessage("amount must be positive");

        assertThat(accounts.find(user)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void verifyWhenAmountNotPositiveThenBalanceIsUnchanged(long amount) {
        String user = newUser();
        accounts.deposit(user, 10);

        assertThatThrownBy(() -> accounts.deposit(user, amount)).isInstanceOf(InvalidAmountException.class);

        assertThat(accounts.balance(user)).isEqualTo(10);
    }

    @Test
    void verifyWhenDepositReachesLongMaxExactlyThenItIsAccepted() {
        String user = newUser();

        assertThat(accounts.deposit(user, Long.MAX_VALUE - 10)).isEqualTo(Long.MAX_VALUE - 10);
        assertThat(accounts.deposit(user, 10)).isEqualTo(Long.MAX_VALUE);

        assertThat(accounts.balance(user)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void verifyWhenDepositOverflowsThenInvalidAmountAndAccountIsUnchanged() {
        String user = newUser();
        accounts.deposit(user, Long.MAX_VALUE - 10);
        Instant credited = clock.instant();
        clock.advance(Duration.ofSeconds(3));

        assertThatThrownBy(() -> accounts.deposit(user, 11))
                .isInstanceOf(InvalidAmountException.class)
                .hasMessage("deposit would overflow the balance");
        assertThatThrownBy(() -> accounts.deposit(user, Long.MAX_VALUE)).isInstanceOf(InvalidAmountException.class);

        assertThat(accounts.find(user)).contains(new Account(user, Long.MAX_VALUE - 10, credited));
    }

    @Test
    void verifyWhenDepositsRunConcurrentlyThenNoUpdateIsLost() {
        String user = newUser();
        int perThread = 25;
        List<Supplier<Long>> tasks = new ArrayList<>();
        long expected = 0;
        for (int t = 0; t < THREADS; t++) {
            long amount = t + 1;
            expected += amount * perThread;
            tasks.add(() -> {
                long last = 0;
                for (int i = 0; i < perThread; i++) {
                    last = accounts.deposit(user, amount);
                }
                return last;
            });
        }

        List<Long> lastSeen =
                runTogether(tasks).stream().map(CompletableFuture::join).toList();

        assertThat(accounts.balance(user)).isEqualTo(expected);
        assertThat(lastSeen)
                .allSatisfy(last -> assertThat(last).isPositive().isLessThanOrEqualTo(accounts.balance(user)));
    }

    @Test
    void verifyWhenConcurrentDepositsThenEachSeesItsOwnNewBalance() {
        String user = newUser();
        List<Supplier<Long>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS * 4; t++) {
            tasks.add(() -> accounts.deposit(user, 1));
        }

        Set<Long> returned =
                runTogether(tasks).stream().map(CompletableFuture::join).collect(Collectors.toSet());

        // every transaction returns the balance right after its own credit: 1, 2, ..., n, once each
        assertThat(returned).hasSize(tasks.size()).allSatisfy(b -> assertThat(b).isBetween(1L, (long) tasks.size()));
        assertThat(accounts.balance(user)).isEqualTo(tasks.size());
    }

    @Test
    void verifyWhenUserFirstSeenConcurrentlyThenOneAccountAndNoFailure() {
        String user = newUser();
        List<Supplier<Long>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            tasks.add(t % 2 == 0 ? () -> accounts.balance(user) : () -> accounts.deposit(user, 1));
        }

        List<Long> results =
                runTogether(tasks).stream().map(CompletableFuture::join).toList();

        int deposits = THREADS / 2;
        assertThat(results).allSatisfy(b -> assertThat(b).isBetween(0L, (long) deposits));
        assertThat(accounts.balance(user)).isEqualTo(deposits);
    }

    @Test
    void verifyWhenConcurrentDepositsReachTheLimitThenOnlyThoseThatFitSucceed() {
        String user = newUser();
        accounts.deposit(user, Long.MAX_VALUE - 100);
        List<Supplier<Long>> tasks = new ArrayList<>();
        for (int t = 0; t < 10; t++) {
            tasks.add(() -> accounts.deposit(user, 20));
        }

        List<CompletableFuture<Long>> outcomes = runTogether(tasks);

        assertThat(outcomes.stream().filter(f -> !f.isCompletedExceptionally())).hasSize(5);
        assertThat(outcomes.stream().filter(CompletableFuture::isCompletedExceptionally))
                .hasSize(5)
                .allSatisfy(f -> assertThatThrownBy(f::join).hasCauseInstanceOf(InvalidAmountException.class));
        assertThat(accounts.balance(user)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void verifyWhenAnotherTransactionIsCreatingTheAccountThenDepositWaitsAndCreditsIt() throws Exception {
        String user = newUser();
        try (Connection creator = dataSource.getConnection()) {
            creator.setAutoCommit(false);
            insertAccount(creator, user, 5);

            CompletableFuture<Long> deposit = CompletableFuture.supplyAsync(() -> accounts.deposit(user, 3), executor);
            awaitASessionWaitingForALock(deposit);
            creator.commit();

            assertThat(deposit.join()).isEqualTo(8);
        }
        assertThat(accounts.balance(user)).isEqualTo(8);
    }

    @Test
    void verifyWhenAnotherTransactionCreatingTheAccountRollsBackThenDepositCreatesIt() throws Exception {
        String user = newUser();
        try (Connection creator = dataSource.getConnection()) {
            creator.setAutoCommit(false);
            insertAccount(creator, user, 5);

            CompletableFuture<Long> deposit = CompletableFuture.supplyAsync(() -> accounts.deposit(user, 3), executor);
            awaitASessionWaitingForALock(deposit);
            creator.rollback();

            assertThat(deposit.join()).isEqualTo(3);
        }
        assertThat(accounts.balance(user)).isEqualTo(3);
    }

    @Test
    void verifyWhenAnotherTransactionIsCreatingTheAccountThenBalanceWaitsAndReadsIt() throws Exception {
        String user = newUser();
        try (Connection creator = dataSource.getConnection()) {
            creator.setAutoCommit(false);
            insertAccount(creator, user, 5);

            CompletableFuture<Long> balance = CompletableFuture.supplyAsync(() -> accounts.balance(user), executor);
            awaitASessionWaitingForALock(balance);
            creator.commit();

            assertThat(balance.join()).isEqualTo(5);
        }
    }

    @Test
    void verifyWhenAnotherTransactionCreatingTheAccountRollsBackThenBalanceCreatesIt() throws Exception {
        String user = newUser();
        try (Connection creator = dataSource.getConnection()) {
            creator.setAutoCommit(false);
            insertAccount(creator, user, 5);

            CompletableFuture<Long> balance = CompletableFuture.supplyAsync(() -> accounts.balance(user), executor);
            awaitASessionWaitingForALock(balance);
            creator.rollback();

            assertThat(balance.join()).isZero();
        }
        assertThat(accounts.find(user)).map(Account::balance).contains(0L);
    }

    @Test
    void depositWithKeyWhenRetriedWithTheSameRequestThenAppliedOnceAndAnsweredAgain() {
        String user = newUser();
        IdempotencyKey key = newKey();
        accounts.deposit(ISSUER, user, 5);

        long first = accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A);
        long retried = accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A);

        assertThat(first).isEqualTo(35);
        assertThat(retried).isEqualTo(35);
        assertThat(accounts.balance(ISSUER, user)).isEqualTo(35);
        assertThat(accounts.idempotencyKeys(ISSUER, user)).isOne();
    }

    @Test
    void depositWithKeyWhenRetriedAfterOtherDepositsThenAnswersTheFirstBalance() {
        String user = newUser();
        IdempotencyKey key = newKey();
        accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A);
        accounts.deposit(ISSUER, user, 7);

        assertThat(accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A)).isEqualTo(30);
        assertThat(accounts.balance(ISSUER, user)).isEqualTo(37);
    }

    @Test
    void depositWithKeyWhenReusedForAnotherRequestThenMismatchAndBalanceUnchanged() {
        String user = newUser();
        IdempotencyKey key = newKey();
        accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A);

        assertThatThrownBy(() -> accounts.deposit(ISSUER, user, 31, key, FINGERPRINT_B))
                .isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                        .isEqualTo(ErrorCode.IDEMPOTENCY_KEY_MISMATCH))
                .hasMessageNotContaining(key.value());

        assertThat(accounts.balance(ISSUER, user)).isEqualTo(30);
        assertThat(accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A)).isEqualTo(30);
    }

    @Test
    void depositWithKeyWhenSameKeyForOtherUserOrIssuerThenIndependent() {
        String user = newUser();
        String other = newUser();
        IdempotencyKey key = newKey();

        assertThat(accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A)).isEqualTo(30);
        assertThat(accounts.deposit(ISSUER, other, 40, key, FINGERPRINT_B)).isEqualTo(40);
        assertThat(accounts.deposit("https://idp-b.example", user, 50, key, FINGERPRINT_B))
                .isEqualTo(50);

        assertThat(accounts.balance(ISSUER, user)).isEqualTo(30);
        assertThat(accounts.balance(ISSUER, other)).isEqualTo(40);
        assertThat(accounts.balance("https://idp-b.example", user)).isEqualTo(50);
    }

    @Test
    void depositWithKeyWhenRetentionPassedThenAppliedAgain() {
        String user = newUser();
        IdempotencyKey key = newKey();
        accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A);
        clock.advance(AccountProperties.defaults().idempotencyRetention().minusSeconds(1));
        assertThat(accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A)).isEqualTo(30);

        clock.advance(Duration.ofSeconds(1));

        assertThat(accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_B)).isEqualTo(60);
        assertThat(accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_B)).isEqualTo(60);
        assertThat(accounts.balance(ISSUER, user)).isEqualTo(60);
    }

    @Test
    void depositWithKeyWhenSentConcurrentlyThenAppliedOnceAndEveryoneGetsTheFirstAnswer() {
        String user = newUser();
        accounts.deposit(ISSUER, user, 1);
        IdempotencyKey key = newKey();
        List<Supplier<Long>> tasks = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            tasks.add(() -> accounts.deposit(ISSUER, user, 30, key, FINGERPRINT_A));
        }

        List<Long> answers =
                runTogether(tasks).stream().map(CompletableFuture::join).toList();

        assertThat(answers).hasSize(THREADS).containsOnly(31L);
        assertThat(accounts.balance(ISSUER, user)).isEqualTo(31);
        assertThat(accounts.idempotencyKeys(ISSUER, user)).isOne();
    }

    @Test
    void depositWithKeyWhenCreditFailsThenKeyIsNotKept() {
        String user = newUser();
        IdempotencyKey key = newKey();
        accounts.deposit(ISSUER, user, Long.MAX_VALUE - 10);

        assertThatThrownBy(() -> accounts.deposit(ISSUER, user, 11, key, FINGERPRINT_A))
                .isInstanceOf(InvalidAmountException.class);

        assertThat(accounts.idempotencyKeys(ISSUER, user)).isZero();
        assertThat(accounts.deposit(ISSUER, user, 10, key, FINGERPRINT_B)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void depositWithKeyWhenIssuerUserAndKeyExceedTheIndexEntryThenInvalidAndNothingChanges() {
        String user = "u".repeat(AccountRepository.MAX_USER_ID_BYTES - 36) + UUID.randomUUID();
        String issuer = "https://" + "i".repeat(AccountRepository.MAX_ISSUER_BYTES - 8);
        IdempotencyKey key = new IdempotencyKey("k".repeat(IdempotencyKey.MAX_LENGTH));

        assertThatThrownBy(() -> accounts.deposit(issuer, user, 1, key, FINGERPRINT_A))
                .isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                        .isEqualTo(ErrorCode.IDEMPOTENCY_KEY_INVALID));

        assertThat(accounts.find(issuer, user)).isEmpty();
    }

    @Test
    void depositWithKeyWhenIssuerUserAndKeyFillTheIndexEntryExactlyThenStored() {
        // random characters: PostgreSQL compresses a repetitive index entry, which would hide the limit
        String issuer = "https://" + randomText(AccountRepository.MAX_ISSUER_BYTES - 8);
        String user = randomText(AccountRepository.MAX_IDEMPOTENCY_ENTRY_BYTES
                - AccountRepository.MAX_ISSUER_BYTES
                - IdempotencyKey.MAX_LENGTH);
        IdempotencyKey key = new IdempotencyKey(randomText(IdempotencyKey.MAX_LENGTH));

        assertThat(accounts.deposit(issuer, user, 9, key, FINGERPRINT_A)).isEqualTo(9);
        assertThat(accounts.deposit(issuer, user, 9, key, FINGERPRINT_A)).isEqualTo(9);

        assertThat(accounts.idempotencyKeys(issuer, user)).isOne();
    }

    @Test
    void purgeWhenKeysExpiredThenDeletedForEveryAccount() {
        AccountRepository purging = new AccountRepository(
                dataSource,
                new DataSourceTransactionManager(dataSource),
                clock,
                new AccountProperties(Duration.ofHours(1), Duration.ofNanos(1)));
        String idle = newUser();
        String active = newUser();
        purging.deposit(ISSUER, idle, 30, newKey(), FINGERPRINT_A);
        clock.advance(Duration.ofHours(1));

        purging.deposit(ISSUER, active, 30, newKey(), FINGERPRINT_A);

        assertThat(purging.idempotencyKeys(ISSUER, idle)).isZero();
        assertThat(purging.idempotencyKeys(ISSUER, active)).isOne();
        assertThat(purging.balance(ISSUER, idle)).isEqualTo(30);
    }

    @ParameterizedTest
    @MethodSource("acceptedUserIds")
    void verifyWhenUserIdAtTheLimitThenItIsStoredExactly(String user) {
        String unique = user.substring(0, user.length() - 36) + UUID.randomUUID();

        assertThat(accounts.deposit(unique, 3)).isEqualTo(3);

        assertThat(accounts.balance(unique)).isEqualTo(3);
        assertThat(accounts.find(unique)).map(Account::userId).contains(unique);
    }

    Stream<String> acceptedUserIds() {
        return Stream.of(
                "u".repeat(AccountRepository.MAX_USER_ID_BYTES),
                // 4-byte characters: 2048 bytes in 1024 UTF-16 units, then 36 ASCII bytes for the UUID
                "\uD83D\uDE00".repeat(503) + "x".repeat(36),
                "\u20AC".repeat(670) + "y".repeat(38));
    }

    @ParameterizedTest
    @MethodSource("rejectedUserIds")
    void verifyWhenUserIdInvalidThenInvalidUserIdAndNoAccount(String user, String message) {
        assertThatThrownBy(() -> accounts.balance(user))
                .isInstanceOf(InvalidUserIdException.class)
                .hasMessage(message);
        assertThatThrownBy(() -> accounts.deposit(user, 1))
                .isInstanceOf(InvalidUserIdException.class)
                .hasMessage(message);
        assertThatThrownBy(() -> accounts.find(user))
                .isInstanceOf(InvalidUserIdException.class)
                .hasMessage(message);
    }

    Stream<Arguments> rejectedUserIds() {
        String tooLong = "user ID is longer than 2048 bytes";
        return Stream.of(
                Arguments.of(null, "user ID is missing"),
                Arguments.of("", "user ID is missing"),
                Arguments.of("u".repeat(AccountRepository.MAX_USER_ID_BYTES + 1), tooLong),
                Arguments.of("\uD83D\uDE00".repeat(512) + "x", tooLong),
                Arguments.of("\u20AC".repeat(683), tooLong),
                Arguments.of("alice\u0000bob", "user ID contains U+0000"),
                Arguments.of("alice\uD800bob", "user ID is not well-formed UTF-16"),
                Arguments.of("alice\uDE00", "user ID is not well-formed UTF-16"));
    }

    private static void insertAccount(Connection connection, String user, long balance) throws SQLException {
        try (PreparedStatement insert =
                connection.prepareStatement("INSERT INTO account (user_id, balance, updated_at) VALUES (?, ?, ?)")) {
            insert.setString(1, user);
            insert.setLong(2, balance);
            insert.setObject(3, OffsetDateTime.now(ZoneOffset.UTC));
            insert.executeUpdate();
        }
    }

    /**
     * Waits until the repository call is blocked by the uncommitted creation (so the race is really
     * exercised, whatever the scheduling); fails if the call finished without waiting.
     */
    private void awaitASessionWaitingForALock(CompletableFuture<?> call) throws InterruptedException {
        JdbcClient jdbc = JdbcClient.create(dataSource);
        long waiting = Await.until(
                () -> {
                    assertThat(call)
                            .as("the call must wait for the creating transaction")
                            .isNotDone();
                    return jdbc.sql(countSessionsWaitingForALock())
                            .query(Long.class)
                            .single();
                },
                n -> n > 0,
                Duration.ofSeconds(30),
                Duration.ofMillis(10));
        assertThat(waiting).as("sessions waiting for the lock").isPositive();
    }

    private static final String ISSUER = "https://idp-a.example";
    private static final String FINGERPRINT_A = "a".repeat(64);
    private static final String FINGERPRINT_B = "b".repeat(64);

    private static String randomText(int length) {
        java.security.SecureRandom random = new java.security.SecureRandom();
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) ('!' + random.nextInt(94)));
        }
        return text.toString();
    }

    private static IdempotencyKey newKey() {
        return new IdempotencyKey(UUID.randomUUID().toString());
    }

    private static String newUser() {
        return "user-" + UUID.randomUUID();
    }

    /** Starts all tasks at the same moment on the pool and waits until every one has finished. */
    private <T> List<CompletableFuture<T>> runTogether(List<Supplier<T>> tasks) {
        CompletableFuture<Void> start = new CompletableFuture<>();
        List<CompletableFuture<T>> futures = tasks.stream()
                .map(task -> start.thenApplyAsync(ignored -> task.get(), executor))
                .toList();
        start.complete(null);
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .handle((ignored, failure) -> null)
                .orTimeout(60, TimeUnit.SECONDS)
                .join();
        return futures;
    }
}
