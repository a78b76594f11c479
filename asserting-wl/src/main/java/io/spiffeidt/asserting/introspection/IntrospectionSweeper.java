package io.spiffeidt.asserting.introspection;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Sweeps the expired entries of every in-memory introspection store once per {@code
 * spiffeidt.asserting.introspection.purge-interval}, on one daemon thread, so a store that nobody
 * writes to any more does not keep what has expired (a mode used in a burst and then not at all);
 * and gives each store its metrics: the gauges {@value #SIZE} and {@value #CHARS} and the counter
 * {@value #DROPPED} (live records dropped for the bound), tagged with the mode.
 *
 * <p>Thread safety: started and stopped by the container; the sweep runs on its own thread.
 */
@Component
@ConditionalOnProperty(name = "spiffeidt.asserting.introspection.store", havingValue = "memory", matchIfMissing = true)
public class IntrospectionSweeper implements SmartLifecycle {

    /** The gauge of the entries a store holds. */
    public static final String SIZE = "spiffeidt.introspection.size";

    /** The gauge of the characters a store's entries weigh. */
    public static final String CHARS = "spiffeidt.introspection.chars";

    /** The counter of live records dropped because a store was full. */
    public static final String DROPPED = "spiffeidt.introspection.dropped";

    private static final Logger log = LoggerFactory.getLogger(IntrospectionSweeper.class);

    private final List<InMemoryIntrospectionStore<?>> stores;
    private final long periodMillis;
    private volatile ScheduledExecutorService executor;

    public IntrospectionSweeper(
            List<IntrospectionStore<?>> stores,
            IntrospectionProperties properties,
            ObjectProvider<MeterRegistry> registry) {
        this.stores = stores.stream()
                .filter(InMemoryIntrospectionStore.class::isInstance)
                .<InMemoryIntrospectionStore<?>>map(s -> (InMemoryIntrospectionStore<?>) s)
                .toList();
        this.periodMillis = properties.purgeInterval().toMillis();
        registry.ifAvailable(this::register);
    }

    private void register(MeterRegistry registry) {
        for (InMemoryIntrospectionStore<?> store : stores) {
            Gauge.builder(SIZE, store, InMemoryIntrospectionStore::size)
                    .description("Introspection records an in-memory store holds")
                    .tag("mode", store.name())
                    .register(registry);
            Gauge.builder(CHARS, store, InMemoryIntrospectionStore::chars)
                    .description("Characters the records of an in-memory introspection store weigh")
                    .tag("mode", store.name())
                    .register(registry);
            FunctionCounter.builder(DROPPED, store, InMemoryIntrospectionStore::dropped)
                    .description("Live introspection records dropped because the store was full")
                    .tag("mode", store.name())
                    .register(registry);
        }
    }

    /** Sweeps every store once (what the schedule runs). */
    void sweepAll() {
        for (InMemoryIntrospectionStore<?> store : stores) {
            try {
                store.sweep();
            } catch (RuntimeException e) {
                log.warn("sweep of introspection store {} failed: {}", store.name(), e.toString());
            }
        }
    }

    @Override
    public void start() {
        ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "introspection-sweep");
            t.setDaemon(true);
            return t;
        });
        started.scheduleWithFixedDelay(this::sweepAll, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        executor = started;
    }

    @Override
    public void stop() {
        ScheduledExecutorService running = executor;
        executor = null;
        if (running != null) {
            running.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }
}
