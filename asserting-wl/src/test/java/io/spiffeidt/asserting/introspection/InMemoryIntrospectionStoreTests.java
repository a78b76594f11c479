package io.spiffeidt.asserting.introspection;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class InMemoryIntrospectionStoreTests {

    private static final Instant T0 = Instant.ofEpochSecond(1_700_000_000L);

    @Test
    void getWhenLiveThenValueAndWhenExpiredThenEmpty() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 10);
        store.put("a", "one", T0.plusSeconds(120));
        assertThat(store.get("a")).contains("one");
        clock.set(T0.plusSeconds(120));
        assertThat(store.get("a")).isEmpty();
        assertThat(store.size()).isZero();
    }

    @Test
    void getWhenUnknownThenEmpty() {
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(MutableClock.at(T0), 10);
        assertThat(store.get("nope")).isEmpty();
    }

    @Test
    void replaceWhenLiveThenNewValueSameExpiryAndWhenAbsentThenNothing() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 10);
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
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 3);
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
        InMemoryIntrospectionStore<String> store = new InMemoryIntrospectionStore<>(clock, 2);
        store.put("old", "x", T0.plusSeconds(1));
        store.put("live", "y", T0.plusSeconds(100));
        clock.set(T0.plusSeconds(5));
        store.put("new", "z", T0.plusSeconds(100));
        assertThat(store.get("live")).contains("y");
        assertThat(store.get("new")).contains("z");
        assertThat(store.size()).isEqualTo(2);
    }
}
