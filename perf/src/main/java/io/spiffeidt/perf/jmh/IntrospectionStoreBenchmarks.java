package io.spiffeidt.perf.jmh;

import io.spiffeidt.asserting.introspection.InMemoryIntrospectionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What keeping a minted document's introspection record costs asserting-wl per mint, with the bound
 * per user (docs/operations.md "The introspection store"): one {@code put} into a store after 10,000
 * puts, in three shapes. {@code users}: 1,000 users take turns, each within the bound
 * of 16 (the usual traffic). {@code flood}: one user mints again and again, each put dropping that
 * user's own oldest record (the attack the bound answers). {@code keyed}: each record its own owner
 * through the store's three-argument {@code put}, the shape the store had before the bound per user
 * (the same call compiles against the earlier store, for an A/B run with its jar). A mint itself
 * costs what {@link ZkpBenchmarks#zkpProve80} does and more; the ratio is what the bound adds.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Thread)
public class IntrospectionStoreBenchmarks {

    private static final int HELD = 10_000;

    @Param({"users", "flood", "keyed"})
    public String shape;

    private InMemoryIntrospectionStore<String> store;
    private String[] owners;
    private Instant expiresAt;
    private long next;

    @Setup(Level.Trial)
    public void fill() {
        Clock clock = Clock.systemUTC();
        expiresAt = clock.instant().plus(Duration.ofHours(1));
        store = shape.equals("keyed")
                ? new InMemoryIntrospectionStore<>(
                        "bench", clock, 100_000, Long.MAX_VALUE, Duration.ofHours(1), v -> 1000)
                : new InMemoryIntrospectionStore<>(
                        "bench", clock, 100_000, Long.MAX_VALUE, 16, Duration.ofHours(1), v -> 1000);
        owners = new String[shape.equals("flood") ? 1 : 1000];
        for (int i = 0; i < owners.length; i++) {
            owners[i] = "owner-" + i;
        }
        for (int i = 0; i < HELD; i++) {
            put();
        }
    }

    @Benchmark
    public Object put() {
        long n = next++;
        String key = "jti-" + n;
        if (shape.equals("keyed")) {
            store.put(key, "record", expiresAt);
        } else {
            store.put(key, owners[(int) (n % owners.length)], "record", expiresAt);
        }
        return store;
    }
}
