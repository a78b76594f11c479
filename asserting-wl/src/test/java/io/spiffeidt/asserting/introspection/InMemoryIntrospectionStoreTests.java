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
        InMemoryIntrospectionStore<String> store = store(clock, 10);
        store.put("a", "one", T0.plusSeconds(120));
        assertThat(store.get("a")).contains("one");
        clock.set(T0.plusSeconds(120));
        assertThat(store.get("a")).isEmpty();
        assertThat(store.size()).isZero();
    }

    @Test
    void getWhenUnknownThenEmpty() {
        InMemoryIntrospectionStore<String> store = store(MutableClock.at(T0), 10);
        assertThat(store.get("nope")).isEmpty();
    }

    @Test
    void replaceWhenLiveThenNewValueSameExpiryAndWhenAbsentThenNothing() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = store(clock, 10);
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
        InMemoryIntrospectionStore<String> store = store(clock, 3);
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
        InMemoryIntrospectionStore<String> store = store(clock, 2);
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
        InMemoryIntrospectionStore<String> store = store(clock, 1_000);
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
        InMemoryIntrospectionStore<String> store = store(clock, 1_000);
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
        assertThatThrownBy(() -> new InMemoryIntrospectionStore<String>(
                        "test", MutableClock.at(T0), 10, 100, Duration.ZERO, String::length))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("purgeInterval");
        assertThatThrownBy(() -> new InMemoryIntrospectionStore<String>(
                        "test", MutableClock.at(T0), 10, 0, PURGE, String::length))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxChars");
    }

    @Test
    void putWhenCharacterBudgetPassedThenOldestDroppedAndCountedAsLive() {
        MutableClock clock = MutableClock.at(T0);
        // each entry weighs its key (2) and its value (8): 10 characters, three fit in 30
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("test", clock, 1_000, 30, PURGE, String::length);
        for (int i = 0; i < 5; i++) {
            store.put("k" + i, "12345678", T0.plusSeconds(100));
        }
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.chars()).isEqualTo(30);
        assertThat(store.get("k1")).isEmpty();
        assertThat(store.get("k2")).contains("12345678");
        assertThat(store.dropped()).as("two live records dropped for the bound").isEqualTo(2);
    }

    @Test
    void putWhenOldestExpiredThenDroppedWithoutCountingAsLive() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("test", clock, 1_000, 20, PURGE, String::length);
        store.put("k0", "12345678", T0.plusSeconds(1));
        store.put("k1", "12345678", T0.plusSeconds(100));
        clock.set(T0.plusSeconds(2));
        store.put("k2", "12345678", T0.plusSeconds(100));
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.dropped()).isZero();
    }

    @Test
    void putWhenEntryHeavierThanTheBudgetThenNotKept() {
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("test", MutableClock.at(T0), 1_000, 20, PURGE, String::length);
        store.put("small", "x", T0.plusSeconds(100));
        store.put("huge", "x".repeat(100), T0.plusSeconds(100));
        assertThat(store.get("huge")).isEmpty();
        assertThat(store.size()).isZero();
        assertThat(store.chars()).isZero();
        assertThat(store.dropped()).isEqualTo(2);
    }

    @Test
    void replaceWhenHeavierThenWeightFollowsAndBudgetHolds() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("test", clock, 1_000, 40, PURGE, String::length);
        store.put("k0", "1", T0.plusSeconds(100));
        store.put("k1", "1", T0.plusSeconds(100));
        assertThat(store.chars()).isEqualTo(6);
        store.replace("k1", "x".repeat(30));
        assertThat(store.chars()).isEqualTo(35);
        assertThat(store.get("k1")).contains("x".repeat(30));
        store.replace("k1", "x".repeat(37));
        assertThat(store.get("k0")).as("the oldest went to make room").isEmpty();
        assertThat(store.get("k1")).contains("x".repeat(37));
        assertThat(store.chars()).isEqualTo(39);
    }

    @Test
    void putWhenReplacedUnderTheSameKeyThenOneEntryAndItsWeight() {
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("test", MutableClock.at(T0), 2, 1_000, PURGE, String::length);
        store.put("a", "1", T0.plusSeconds(100));
        store.put("a", "123", T0.plusSeconds(100));
        store.put("b", "1", T0.plusSeconds(100));
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.chars()).isEqualTo(6);
        assertThat(store.get("a")).contains("123");
        assertThat(store.dropped()).isZero();
    }

    @Test
    void sweepWhenNothingIsPutThenExpiredDroppedOncePerInterval() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store = store(clock, 1_000);
        for (int i = 0; i < 10; i++) {
            store.put("old" + i, "x", T0.plusSeconds(5));
        }
        store.put("live", "y", T0.plusSeconds(100));
        clock.set(T0.plusSeconds(9));
        store.sweep();
        assertThat(store.size()).as("before the interval").isEqualTo(11);
        clock.set(T0.plusSeconds(10));
        store.sweep();
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.chars()).isEqualTo("live".length() + 1);
        assertThat(store.get("live")).contains("y");
        assertThat(store.dropped()).isZero();
    }

    // ---- one owner's records never push out another owner's

    @Test
    void putWhenOwnerOverItsBoundThenItsOwnOldestDroppedAndOthersKept() {
        InMemoryIntrospectionStore<String> store = owned(MutableClock.at(T0), 100, Long.MAX_VALUE, 2);
        store.put("alice-1", "alice", "a", T0.plusSeconds(100));
        for (int i = 0; i < 5; i++) {
            store.put("mallory-" + i, "mallory", "m", T0.plusSeconds(100));
        }

        assertThat(store.heldBy("mallory")).isEqualTo(2);
        assertThat(store.get("mallory-3")).contains("m");
        assertThat(store.get("mallory-4")).contains("m");
        assertThat(store.get("mallory-2")).isEmpty();
        assertThat(store.get("alice-1")).contains("a");
        assertThat(store.replacedByOwner()).isEqualTo(3);
        assertThat(store.dropped()).isZero();
    }

    @Test
    void putWhenStoreFullThenThePuttingOwnersOldestGoesBeforeAnotherOwnersLiveRecord() {
        InMemoryIntrospectionStore<String> store = owned(MutableClock.at(T0), 3, Long.MAX_VALUE, 100);
        store.put("alice-1", "alice", "a", T0.plusSeconds(100));
        store.put("bob-1", "bob", "b", T0.plusSeconds(100));
        store.put("mallory-0", "mallory", "m", T0.plusSeconds(100));
        for (int i = 1; i < 1000; i++) {
            store.put("mallory-" + i, "mallory", "m", T0.plusSeconds(100));
        }

        assertThat(store.get("alice-1")).contains("a");
        assertThat(store.get("bob-1")).contains("b");
        assertThat(store.get("mallory-999")).contains("m");
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.dropped()).isZero();
    }

    @Test
    void putWhenCharacterBoundPassedThenThePuttingOwnersOldestGoesFirst() {
        // each value weighs 100 characters plus its key: three fit
        InMemoryIntrospectionStore<String> store = owned(MutableClock.at(T0), 100, 330, 100);
        String heavy = "x".repeat(100);
        store.put("a1", "alice", heavy, T0.plusSeconds(100));
        store.put("m1", "mallory", heavy, T0.plusSeconds(100));
        store.put("m2", "mallory", heavy, T0.plusSeconds(100));
        store.put("m3", "mallory", heavy, T0.plusSeconds(100));

        assertThat(store.get("a1")).contains(heavy);
        assertThat(store.get("m1")).isEmpty();
        assertThat(store.get("m3")).contains(heavy);
        assertThat(store.chars()).isLessThanOrEqualTo(330);
    }

    @Test
    void putWhenNewcomerFindsTheStoreFullThenTheStoresOldestLiveRecordIsDroppedAndCounted() {
        // the heap's bound holds even for a user with no record of their own to give up
        InMemoryIntrospectionStore<String> store = owned(MutableClock.at(T0), 2, Long.MAX_VALUE, 100);
        store.put("alice-1", "alice", "a", T0.plusSeconds(100));
        store.put("bob-1", "bob", "b", T0.plusSeconds(100));
        store.put("carol-1", "carol", "c", T0.plusSeconds(100));

        assertThat(store.get("alice-1")).isEmpty();
        assertThat(store.get("bob-1")).contains("b");
        assertThat(store.get("carol-1")).contains("c");
        assertThat(store.dropped()).isEqualTo(1);
        assertThat(store.heldBy("alice")).isZero();
    }

    @Test
    void putWhenOwnerChurnsThenDroppedRecordsDoNotPileUpInTheOrder() {
        InMemoryIntrospectionStore<String> store = owned(MutableClock.at(T0), 10, Long.MAX_VALUE, 1);
        for (int i = 0; i < 10_000; i++) {
            store.put("m-" + i, "mallory", "m", T0.plusSeconds(100));
        }

        assertThat(store.size()).isEqualTo(1);
        assertThat(store.heldBy("mallory")).isEqualTo(1);
        assertThat(store.get("m-9999")).contains("m");
        assertThat(store.replacedByOwner()).isEqualTo(9_999);
    }

    @Test
    void constructWhenOwnerBoundNotPositiveThenRefused() {
        assertThatThrownBy(() -> owned(MutableClock.at(T0), 10, 10, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static InMemoryIntrospectionStore<String> owned(
            MutableClock clock, int maxEntries, long maxChars, int maxEntriesPerOwner) {
        return new InMemoryIntrospectionStore<>(
                "test", clock, maxEntries, maxChars, maxEntriesPerOwner, PURGE, String::length);
    }

    private static InMemoryIntrospectionStore<String> store(MutableClock clock, int maxEntries) {
        return new InMemoryIntrospectionStore<>("test", clock, maxEntries, Long.MAX_VALUE, PURGE, String::length);
    }
}
