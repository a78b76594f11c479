package io.spiffeidt.core.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MemoTests {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    private final MutableClock clock = MutableClock.at(NOW);
    private final Counting events = new Counting();

    /** A value with its own times. */
    private record Layer(String text, Instant issuedAt, Instant expiresAt) {}

    /** Counts the events per name and result. */
    private static final class Counting implements MemoEvents {
        final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
        final List<Memo<?, ?>> created = new ArrayList<>();

        int count(String name, String result) {
            AtomicInteger c = counts.get(name + "/" + result);
            return c == null ? 0 : c.get();
        }

        private void count(String key) {
            counts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void hit(String name) {
            count(name + "/hit");
        }

        @Override
        public void miss(String name) {
            count(name + "/miss");
        }

        @Override
        public void evicted(String name) {
            count(name + "/evicted");
        }

        @Override
        public synchronized void created(Memo<?, ?> memo) {
            created.add(memo);
        }
    }

    private <V> Memo<String, V> memo(MemoSettings settings, Expiry<? super V> expiry) {
        return new Memo<>("test", settings, expiry, clock, events);
    }

    @Test
    void getWhenRememberedThenFoundAndCountedAsHit() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS, Expiry.ttl());
        memo.put("k", "v");

        assertThat(memo.get("k")).isEqualTo("v");
        assertThat(memo.get("other")).isNull();
        assertThat(memo.hits()).isEqualTo(1);
        assertThat(events.count("test", "hit")).isEqualTo(1);
        assertThat(events.count("test", "miss")).isEqualTo(1);
        assertThat(events.created).containsExactly(memo);
    }

    @Test
    void getWhenValueNotUsableThenMissAndNoHit() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS, Expiry.ttl());
        memo.put("k", "v");

        assertThat(memo.get("k", v -> false)).isNull();
        assertThat(memo.hits()).isZero();
        assertThat(events.count("test", "miss")).isEqualTo(1);
        assertThat(memo.get("k", "v"::equals)).isEqualTo("v");
    }

    @Test
    void putWhenFullThenLeastRecentlyUsedGoes() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS.withSize(2), Expiry.ttl());
        memo.put("a", "1");
        memo.put("b", "2");
        assertThat(memo.get("a")).isEqualTo("1"); // b is now the least recently used
        memo.put("c", "3");

        assertThat(memo.size()).isEqualTo(2);
        assertThat(memo.get("b")).isNull();
        assertThat(memo.get("a")).isEqualTo("1");
        assertThat(memo.get("c")).isEqualTo("3");
        assertThat(events.count("test", "evicted")).isEqualTo(1);
    }

    @Test
    void putWhenCharacterBudgetPassedThenOldestGoUntilItFits() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS.withMaxChars(10), Expiry.ttl());
        memo.put("a", "1", 4);
        memo.put("b", "2", 4);
        memo.put("c", "3", 5);

        assertThat(memo.get("a")).isNull();
        assertThat(memo.get("b")).isEqualTo("2");
        assertThat(memo.chars()).isEqualTo(9);
        memo.put("d", "4", 10);
        assertThat(memo.size()).isEqualTo(1);
        assertThat(memo.chars()).isEqualTo(10);
        assertThat(events.count("test", "evicted")).isEqualTo(3);
    }

    @Test
    void putWhenHeavierThanTheWholeBudgetThenNotKeptAndNothingEvicted() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS.withMaxChars(10), Expiry.ttl());
        memo.put("a", "1", 4);
        memo.put("huge", "2", 11);

        assertThat(memo.get("huge")).isNull();
        assertThat(memo.get("a")).isEqualTo("1");
    }

    @Test
    void putWhenSameKeyAgainThenReplacedAndWeighedOnce() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS, Expiry.ttl());
        memo.put("a", "1", 4);
        memo.put("a", "2", 6);

        assertThat(memo.size()).isEqualTo(1);
        assertThat(memo.chars()).isEqualTo(6);
        assertThat(memo.get("a")).isEqualTo("2");
        memo.remove("a");
        assertThat(memo.chars()).isZero();
    }

    @Test
    void getWhenTtlPassedThenExpiredAndEvicted() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS.withTtl(Duration.ofMinutes(5)), Expiry.ttl());
        memo.put("k", "v");
        clock.advance(Duration.ofMinutes(5).minusNanos(1));
        assertThat(memo.get("k")).isEqualTo("v");

        clock.advance(Duration.ofNanos(1));
        assertThat(memo.get("k")).isNull();
        assertThat(memo.size()).isZero();
        assertThat(events.count("test", "evicted")).isEqualTo(1);
    }

    @Test
    void getWhenNoTtlThenKeptUntilPushedOut() {
        Memo<String, String> memo = memo(MemoSettings.DEFAULTS, Expiry.ttl());
        memo.put("k", "v");
        clock.advance(Duration.ofDays(3650));

        assertThat(memo.get("k")).isEqualTo("v");
    }

    @Test
    void getWhenOwnExpiryPassedThenExpired() {
        Memo<String, Layer> memo = memo(MemoSettings.DEFAULTS, Expiry.own(Layer::expiresAt));
        memo.put("k", new Layer("t", NOW, NOW.plusSeconds(60)));
        clock.advance(Duration.ofSeconds(59));
        assertThat(memo.get("k")).isNotNull();

        clock.advance(Duration.ofSeconds(1));
        assertThat(memo.get("k")).isNull();
    }

    @Test
    void getWhenOwnExpiryLaterThanTtlThenTheTtlEndsIt() {
        Memo<String, Layer> memo =
                memo(MemoSettings.DEFAULTS.withTtl(Duration.ofSeconds(10)), Expiry.own(Layer::expiresAt));
        memo.put("k", new Layer("t", NOW, NOW.plusSeconds(60)));
        clock.advance(Duration.ofSeconds(10));

        assertThat(memo.get("k")).isNull();
    }

    @Test
    void putWhenAlreadyExpiredThenNotKept() {
        Memo<String, Layer> memo = memo(MemoSettings.DEFAULTS, Expiry.own(Layer::expiresAt));
        memo.put("k", new Layer("t", NOW.minusSeconds(60), NOW));

        assertThat(memo.size()).isZero();
    }

    @Test
    void getWhenHalfTheLifetimePassedThenExpired() {
        Memo<String, Layer> memo = memo(MemoSettings.DEFAULTS, Expiry.halfLife(Layer::issuedAt, Layer::expiresAt));
        memo.put("k", new Layer("t", NOW, NOW.plusSeconds(300)));
        clock.advance(Duration.ofSeconds(149));
        assertThat(memo.get("k")).isNotNull();

        clock.advance(Duration.ofSeconds(1));
        assertThat(memo.get("k")).isNull();
    }

    @Test
    void halfLifeWhenOddLifetimeThenRoundsDownToWholeSeconds() {
        Expiry<Layer> half = Expiry.halfLife(Layer::issuedAt, Layer::expiresAt);

        assertThat(half.until(new Layer("t", NOW, NOW.plusSeconds(301)), NOW)).isEqualTo(NOW.plusSeconds(150));
    }

    @Test
    void getWhenDisabledThenNothingRememberedAndNoEvents() {
        for (MemoSettings off : List.of(
                MemoSettings.OFF,
                MemoSettings.DEFAULTS.withSize(0),
                MemoSettings.DEFAULTS.withMaxChars(0),
                MemoSettings.DEFAULTS.withTtl(Duration.ZERO),
                new MemoSettings(false, 10, 10, null))) {
            Memo<String, String> memo = memo(off, Expiry.ttl());
            memo.put("k", "v");

            assertThat(memo.remembers()).as(off.toString()).isFalse();
            assertThat(memo.get("k")).as(off.toString()).isNull();
            assertThat(memo.size()).isZero();
        }
        assertThat(events.counts).isEmpty();
        assertThat(Memo.off("x").get("k")).isNull();
        assertThat(Memos.none().settings("anything")).isEqualTo(MemoSettings.OFF);
    }

    @Test
    void putWhenConcurrentThenStaysWithinBothBounds() throws Exception {
        Memo<Integer, String> memo =
                new Memo<>("test", new MemoSettings(true, 64, 1000, null), Expiry.ttl(), clock, events);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t * 10_000;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        memo.put(offset + i, "v", i % 30);
                        memo.get(offset + i / 2);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }

        assertThat(memo.size()).isBetween(1, 64);
        assertThat(memo.chars()).isBetween(0L, 1000L);
        assertThat(events.count("test", "hit") + events.count("test", "miss")).isEqualTo(20_000);
        assertThat(events.count("test", "evicted")).isEqualTo(20_000 - memo.size());
    }

    @Test
    void memosWhenAskedByNameThenEachNameGetsItsSettings() {
        Memos memos = Memos.of(
                name -> name.equals("small") ? MemoSettings.DEFAULTS.withSize(1) : MemoSettings.OFF, clock, events);
        Memo<String, String> small = memos.memo("small", Expiry.ttl());
        Memo<String, String> off = memos.memo("off", Expiry.ttl());

        assertThat(small.name()).isEqualTo("small");
        assertThat(small.settings().size()).isEqualTo(1);
        assertThat(off.remembers()).isFalse();
        assertThat(events.created).containsExactly(small, off);
    }

    @Test
    void settingsWhenNegativeThenRejected() {
        assertThatThrownBy(() -> new MemoSettings(true, -1, 1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MemoSettings(true, 1, -1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MemoSettings(true, 1, 1, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
