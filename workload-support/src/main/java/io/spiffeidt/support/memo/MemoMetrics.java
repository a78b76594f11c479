package io.spiffeidt.support.memo;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.MemoEvents;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one metric of every memo (docs/design.md "Metrics"): the counter {@value #COUNTER} ({@code
 * name}, {@code result} = {@code hit} | {@code miss} | {@code evicted}) and the gauge {@value #SIZE}
 * ({@code name}: the entries the newest memo of that name holds; a verifier rebuilt for a new
 * trust bundle makes its memos anew).
 */
public final class MemoMetrics implements MemoEvents {

    /** The counter of memo lookups and evictions. */
    public static final String COUNTER = "spiffeidt.memo";

    /** The gauge of the entries a memo holds. */
    public static final String SIZE = "spiffeidt.memo.size";

    /** Written-out equals and hashCode: a record's go through method handles, on every memo look-up. */
    private record Key(String name, String result) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && name.equals(k.name) && result.equals(k.result);
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + result.hashCode();
        }
    }

    private final MeterRegistry registry;
    private final Map<Key, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Memo<?, ?>> newest = new ConcurrentHashMap<>();

    /** Records into {@code registry}. */
    public MemoMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void hit(String name) {
        count(name, "hit");
    }

    @Override
    public void miss(String name) {
        count(name, "miss");
    }

    @Override
    public void evicted(String name) {
        count(name, "evicted");
    }

    @Override
    public void created(Memo<?, ?> memo) {
        if (!memo.remembers()) {
            return;
        }
        if (newest.put(memo.name(), memo) == null) {
            Gauge.builder(SIZE, newest, all -> {
                        Memo<?, ?> m = all.get(memo.name());
                        return m == null ? 0 : m.size();
                    })
                    .description("Entries a memo holds")
                    .tag("name", memo.name())
                    .strongReference(true)
                    .register(registry);
        }
    }

    private void count(String name, String result) {
        counters.computeIfAbsent(new Key(name, result), k -> Counter.builder(COUNTER)
                        .description("Memo lookups that found a usable value (hit) or none (miss), and entries"
                                + " that left a memo full or out of time (evicted)")
                        .tag("name", name)
                        .tag("result", result)
                        .register(registry))
                .increment();
    }
}
