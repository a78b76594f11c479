package io.spiffeidt.asserting.introspection;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.testkit.Await;
import io.spiffeidt.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;

class IntrospectionSweeperTests {

    private static final Instant T0 = Instant.ofEpochSecond(1_700_000_000L);

    /** A store that is not in memory (as the JDBC one): the sweeper leaves it alone. */
    private static final IntrospectionStore<String> ELSEWHERE = new IntrospectionStore<>() {
        @Override
        public void put(String key, String owner, String value, Instant expiresAt) {}

        @Override
        public Optional<String> get(String key) {
            return Optional.empty();
        }

        @Override
        public void replace(String key, String value) {}
    };

    @Test
    void sweepAllWhenNobodyWritesThenExpiredRecordsGoAndTheGaugesFollow() {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("dvid", clock, 100, 1_000, Duration.ofSeconds(10), String::length);
        store.put("a", "1234", T0.plusSeconds(5));
        store.put("b", "1234", T0.plusSeconds(60));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IntrospectionSweeper sweeper = new IntrospectionSweeper(
                List.of(store, ELSEWHERE), properties(Duration.ofSeconds(10)), provider(registry));
        assertThat(registry.get(IntrospectionSweeper.SIZE)
                        .tag("mode", "dvid")
                        .gauge()
                        .value())
                .isEqualTo(2);
        assertThat(registry.get(IntrospectionSweeper.CHARS)
                        .tag("mode", "dvid")
                        .gauge()
                        .value())
                .isEqualTo(10);

        clock.set(T0.plusSeconds(10));
        sweeper.sweepAll();

        assertThat(store.size()).isEqualTo(1);
        assertThat(registry.get(IntrospectionSweeper.SIZE)
                        .tag("mode", "dvid")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get(IntrospectionSweeper.DROPPED)
                        .tag("mode", "dvid")
                        .functionCounter()
                        .count())
                .isZero();
    }

    @Test
    void startWhenRunningThenSweepsOnItsOwnScheduleUntilStopped() throws InterruptedException {
        MutableClock clock = MutableClock.at(T0);
        InMemoryIntrospectionStore<String> store =
                new InMemoryIntrospectionStore<>("id-mode", clock, 100, 1_000, Duration.ofMillis(50), String::length);
        store.put("a", "x", T0.plusSeconds(1));
        clock.set(T0.plusSeconds(2));
        IntrospectionSweeper sweeper = new IntrospectionSweeper(
                List.of(store),
                properties(Duration.ofMillis(50)),
                new DefaultListableBeanFactory().getBeanProvider(MeterRegistry.class));
        sweeper.start();
        try {
            assertThat(sweeper.isRunning()).isTrue();
            assertThat(Await.until(store::size, n -> n == 0, Duration.ofSeconds(10)))
                    .isZero();
        } finally {
            sweeper.stop();
        }
        assertThat(sweeper.isRunning()).isFalse();
    }

    private static IntrospectionProperties properties(Duration purgeInterval) {
        return new IntrospectionProperties(IntrospectionProperties.Store.MEMORY, 100, null, 16, purgeInterval);
    }

    private static ObjectProvider<MeterRegistry> provider(MeterRegistry registry) {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("registry", registry);
        return beans.getBeanProvider(MeterRegistry.class);
    }
}
