package io.spiffeidt.asserting.introspection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InMemoryIntrospectionStoreTests {

    private static final Instant T0 = Instant.ofEpochSecond(1_700_000_000L);
    private static final Duration PURGE = Duration.ofSeconds(10);

    @Test
    void getWhenLiveThenValueAndWhenExpiredThenEmpty() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 10, PURGE);
        store.put("a", "one", T0.plusSeconds(120));
        assertThat(store.get("a")).contains("one");
        clock.set(T0.plusSeconds(120));
        assertThat(store.get("a")).isEmpty();
        assertThat(store.size()).isZero();
    }

    @Test
    void getWhenUnknownThenEmpty() {
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(MutableClock.at(T0), 10, PURGE);
        assertThat(store.get("nope")).isEmpty();
    }

    @Test
    void replaceWhenLiveThenNewValueSameExpiryAndWhenAbsentThenNothing() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 10, PURGE);
        store.put("a", "one", T0.plusSeconds(10));
        store.replace("a", "two");
        store.replace("b", "ghost");
        assertThat(store.get("a")).contains("two");
        assertThat(store.get("b")).isEmpty();
        clock.set(T0.plus(Duration.ofSeconds(10)));
        assertThat(store.get("a")).isEmpty();
    }

    @Test
    void putWhenBoundReachedThenOldestEvictedFirst() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 3, PURGE);
        for (int i = 0; i < 5; i++) {
            store.put("k" + i, "v" + i, T0.plusSeconds(100));
        }
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.get("k0")).isEmpty();
        assertThat(store.get("k1")).isEmpty();
        assertThat(store.get("k4")).contains("v4");
    }

    @Test
    void putWhenBoundReachedThenExpiredDroppedBeforeLive() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 2, PURGE);
        store.put("old", "x", T0.plusSeconds(1));
        store.put("live", "y", T0.plusSeconds(100));
        clock.set(T0.plusSeconds(5));
        store.put("new", "z", T0.plusSeconds(100));
        assertThat(store.get("live")).contains("y");
        assertThat(store.get("new")).contains("z");
        assertThat(store.size()).isEqualTo(2);
    }

    @Test
    void putWhenPurgeIntervalPassedThenExpiredEntriesDroppedBelowTheBound() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 1_000, PURGE);
        for (int i = 0; i < 50; i++) {
            store.put("old" + i, "x", T0.plusSeconds(5));
        }
        store.put("live", "y", T0.plusSeconds(100));
        clock.set(T0.plusSeconds(9));
        store.put("before-the-interval", "z", T0.plusSeconds(100));
        assertThat(store.size()).as("no sweep before the interval").isEqualTo(52);

        clock.set(T0.plusSeconds(10));
        store.put("after-the-interval", "w", T0.plusSeconds(100));

        assertThat(store.size()).isEqualTo(3);
        assertThat(store.get("live")).contains("y");
        assertThat(store.get("before-the-interval")).contains("z");
        assertThat(store.get("after-the-interval")).contains("w");
    }

    @Test
    void putWhenSweptThenNextSweepOnlyAfterAnotherInterval() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 1_000, PURGE);
        clock.set(T0.plusSeconds(10));
        store.put("a", "x", T0.plusSeconds(12));
        clock.set(T0.plusSeconds(15));
        store.put("b", "y", T0.plusSeconds(100));
        assertThat(store.size()).as("a expired, but the last sweep was 5 s ago").isEqualTo(2);
        clock.set(T0.plusSeconds(20));
        store.put("c", "z", T0.plusSeconds(100));
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.get("a")).isEmpty();
    }

    @Test
    void constructWhenPurgeIntervalNotPositiveThenRefused() {
        assertThatThrownBy(() -> new InMemoryIntrospectionStore<String>(MutableClock.at(T0), 10, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("purgeInterval");
    }
}
