package io.spiffeidt.support;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Mode;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Per-operation metrics of DESIGN.md "Metrics": the timer {@code spiffeidt.operation} (tags {@code
 * mode}, {@code operation}, {@code outcome}) and the distribution summary {@code
 * spiffeidt.document.size} (tags {@code mode}, {@code depth}). Histograms are enabled by a meter
 * filter of the auto-configuration.
 *
 * <p>Operation names: {@code jwks_fetch}, {@code oauth_verify}, {@code zkp_generation}, {@code
 * zkp_verification}, {@code mint}, {@code extend}, {@code validate}, {@code mtls_client_setup},
 * {@code validate_call}, {@code introspect_call}, {@code target_request}, {@code db_query}.
 *
 * <p>Outcome: {@code success}, the {@link io.spiffeidt.core.ErrorCode} name of an {@link
 * AssertionException}, or {@code error} for any other exception (which is rethrown unchanged).
 *
 * <p>Thread safety: thread safe.
 */
public class OperationMetrics {

    /** The timer name. */
    public static final String OPERATION_TIMER = "spiffeidt.operation";

    /** The document size summary name. */
    public static final String DOCUMENT_SIZE = "spiffeidt.document.size";

    private final MeterRegistry registry;

    /** Records into {@code registry}. */
    public OperationMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** Times {@code work} and returns its result; exceptions are recorded and rethrown. */
    public <T> T time(Mode mode, String operation, Supplier<T> work) {
        long start = System.nanoTime();
        String outcome = "error";
        try {
            T result = work.get();
            outcome = "success";
            return result;
        } catch (AssertionException e) {
            outcome = e.code().name();
            throw e;
        } finally {
            record(mode, operation, outcome, System.nanoTime() - start);
        }
    }

    /** Times {@code work}; exceptions are recorded and rethrown. */
    public void run(Mode mode, String operation, Runnable work) {
        time(mode, operation, () -> {
            work.run();
            return null;
        });
    }

    /** Records one already measured duration. */
    public void record(Mode mode, String operation, String outcome, long nanos) {
        Timer.builder(OPERATION_TIMER)
                .description("SPIFFE-IdT operation time")
                .tag("mode", mode.pathSegment())
                .tag("operation", operation)
                .tag("outcome", outcome)
                .register(registry)
                .record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** Records the encoded size of a document of {@code depth} layers. */
    public void recordDocumentSize(Mode mode, int depth, int bytes) {
        DistributionSummary.builder(DOCUMENT_SIZE)
                .description("Encoded SPIFFE-IdT document size")
                .baseUnit("bytes")
                .tag("mode", mode.pathSegment())
                .tag("depth", Integer.toString(depth))
                .register(registry)
                .record(bytes);
    }
}
