package io.spiffeidt.support.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Mode;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Per-operation metrics (docs/design.md "Metrics"): the timer {@code spiffeidt.operation} (tags {@code
 * mode}, {@code operation}, {@code outcome}), the distribution summary {@code
 * spiffeidt.document.size} (tags {@code mode}, {@code depth}), the distribution summaries {@code
 * spiffeidt.http.client.bytes} (tags {@code mode}, {@code downstream}, {@code endpoint}, {@code
 * direction}) and {@code spiffeidt.http.client.document.size} (tags {@code mode}, {@code
 * downstream}, {@code endpoint}) of every downstream call, and the counter {@code
 * spiffeidt.client.handshakes} (tags {@code downstream}, {@code pooling}). Histograms are enabled by a meter
 * filter of the auto-configuration.
 *
 * <p>The {@code operation} tag is one {@link Operation}; docs/operations.md says what each one
 * includes and which tier records it.
 *
 * <p>Every operation recorded while a request is handled also goes into that request's {@link
 * ServerTiming} (the {@code Server-Timing} header of the answer).
 *
 * <p>Every timed operation is also a span of the request's trace (docs/tracing.md), named by its
 * {@link Operation} tag value, with the attributes {@value #SPAN_MODE}, {@value #SPAN_OPERATION},
 * {@value #SPAN_OUTCOME} (the verification result: {@code success} or the error code) and, for an
 * operation on a document, {@value #SPAN_DEPTH} and {@value #SPAN_SIZE}. Attributes never carry the
 * document, a token or a key. Without a tracer ({@link Tracer#NOOP}) spans cost nothing.
 *
 * <p>Each timer, summary and counter is looked up in the registry once per tag combination and kept
 * (the builder's lookup sorts and compares the tags on every call). The combinations are bounded: the
 * modes, the operations, the error codes, the depth limit and the downstream names.
 *
 * <p>Outcome: {@code success}, the {@link io.spiffeidt.core.ErrorCode} name of an {@link
 * AssertionException}, or {@code error} for any other exception (which is rethrown unchanged).
 *
 * <p>Thread safety: thread safe.
 */
public class OperationMetrics {

    /** The timer name. */
    public static final String OPERATION_TIMER = "spiffeidt.operation";

    /** The counter of completed client TLS handshakes. */
    public static final String CLIENT_HANDSHAKES = "spiffeidt.client.handshakes";

    /** Bytes of one downstream call on the wire, per {@code direction} ({@code sent}, {@code received}). */
    public static final String CLIENT_BYTES = "spiffeidt.http.client.bytes";

    /** Characters of the document one downstream call carried (in its body, or a baseline's header). */
    public static final String CLIENT_DOCUMENT_SIZE = "spiffeidt.http.client.document.size";

    /** Counter of OAuth proof checks by the memo's answer ({@code result}: {@code hit}, {@code miss}). */
    public static final String PROOF_MEMO = "spiffeidt.proof.memo";

    /** The document size summary name. */
    public static final String DOCUMENT_SIZE = "spiffeidt.document.size";

    /** Span attribute: the mode's path segment. */
    public static final String SPAN_MODE = "spiffeidt.mode";

    /** Span attribute: the operation's tag value. */
    public static final String SPAN_OPERATION = "spiffeidt.operation";

    /** Span attribute: {@code success}, the error code, or {@code error}. */
    public static final String SPAN_OUTCOME = "spiffeidt.outcome";

    /** Span attribute: the number of layers of the document the operation verified or produced. */
    public static final String SPAN_DEPTH = "spiffeidt.document.depth";

    /** Span attribute: the encoded size in bytes of the document the operation verified or produced. */
    public static final String SPAN_SIZE = "spiffeidt.document.size";

    /** The span of the operation this thread runs in {@link #time}, innermost first. */
    private static final ThreadLocal<Span> CURRENT_SPAN = new ThreadLocal<>();

    private final MeterRegistry registry;
    private final Tracer tracer;

    // the keys write out equals and hashCode: a record's generated ones go through method handles,
    // which showed in the profile of every request

    private record WireKey(Mode mode, String downstream, String endpoint) {
        @Override
        public boolean equals(Object o) {
            return o instanceof WireKey k
                    && mode == k.mode
                    && downstream.equals(k.downstream)
                    && endpoint.equals(k.endpoint);
        }

        @Override
        public int hashCode() {
            return (mode.hashCode() * 31 + downstream.hashCode()) * 31 + endpoint.hashCode();
        }
    }

    private final ConcurrentMap<WireKey, WireMeters> wire = new ConcurrentHashMap<>();

    private record TimerKey(Mode mode, Operation operation, String outcome) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TimerKey k && mode == k.mode && operation == k.operation && outcome.equals(k.outcome);
        }

        @Override
        public int hashCode() {
            return (mode.hashCode() * 31 + operation.hashCode()) * 31 + outcome.hashCode();
        }
    }

    private record SizeKey(Mode mode, int depth) {
        @Override
        public boolean equals(Object o) {
            return o instanceof SizeKey k && mode == k.mode && depth == k.depth;
        }

        @Override
        public int hashCode() {
            return mode.hashCode() * 31 + depth;
        }
    }

    private record CounterKey(String name, Mode mode, String first, String second) {
        @Override
        public boolean equals(Object o) {
            return o instanceof CounterKey k
                    && name.equals(k.name)
                    && mode == k.mode
                    && Objects.equals(first, k.first)
                    && Objects.equals(second, k.second);
        }

        @Override
        public int hashCode() {
            return ((name.hashCode() * 31 + Objects.hashCode(mode)) * 31 + Objects.hashCode(first)) * 31
                    + Objects.hashCode(second);
        }
    }

    private static final String SUCCESS = "success";
    private static final String ERROR = "error";
    private static final int OPERATIONS = Operation.values().length;

    private final ConcurrentMap<TimerKey, Timer> timers = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<Timer> successTimers =
            new AtomicReferenceArray<>(Mode.values().length * OPERATIONS);
    private final ConcurrentMap<SizeKey, DistributionSummary> sizes = new ConcurrentHashMap<>();
    private final ConcurrentMap<CounterKey, Counter> counters = new ConcurrentHashMap<>();

    /** Records into {@code registry}, without spans. */
    public OperationMetrics(MeterRegistry registry) {
        this(registry, Tracer.NOOP);
    }

    /** Records into {@code registry}, and each timed operation as a span of {@code tracer}. */
    public OperationMetrics(MeterRegistry registry, Tracer tracer) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tracer = Objects.requireNonNull(tracer, "tracer");
    }

    /**
     * Times {@code work} and returns its result, as a span child of the current one; exceptions are
     * recorded and rethrown. Inside a trace that is not recorded (the current span is not sampled: no
     * exporter, docs/tracing.md) no span is made: it would not be recorded either (every sampler Boot
     * builds decides a child as its parent), and opening and closing its scope notified every
     * tracing listener, which put the ids into the logging MDC, twice per operation.
     */
    public <T> T time(Mode mode, Operation operation, Supplier<T> work) {
        Span current = tracer.currentSpan();
        if (current != null && Boolean.FALSE.equals(current.context().sampled())) {
            // describeDocument inside tags nothing (not the enclosing operation's span)
            return timed(mode, operation, Span.NOOP, work);
        }
        Span span = tracer.nextSpan()
                .name(operation.tagValue())
                .tag(SPAN_MODE, mode.pathSegment())
                .tag(SPAN_OPERATION, operation.tagValue())
                .start();
        try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
            return timed(mode, operation, span, work);
        }
    }

    /** Runs {@code work} as this thread's current operation on {@code span} ({@link Span#NOOP}: none). */
    private <T> T timed(Mode mode, Operation operation, Span span, Supplier<T> work) {
        Span outer = CURRENT_SPAN.get();
        CURRENT_SPAN.set(span);
        long start = System.nanoTime();
        String outcome = ERROR;
        try {
            T result = work.get();
            outcome = SUCCESS;
            return result;
        } catch (AssertionException e) {
            outcome = e.code().name();
            throw e;
        } finally {
            record(mode, operation, outcome, System.nanoTime() - start);
            restore(outer);
            if (span != Span.NOOP) {
                span.tag(SPAN_OUTCOME, outcome);
                if (!SUCCESS.equals(outcome)) {
                    // the code only: an exception's message or stack trace may quote the document
                    span.tag("error", outcome);
                }
                span.end();
            }
        }
    }

    private static void restore(Span outer) {
        if (outer == null) {
            CURRENT_SPAN.remove();
        } else {
            CURRENT_SPAN.set(outer);
        }
    }

    /**
     * Puts the document's encoded size, and its depth when known ({@code depth > 0}), on the span of
     * the operation this thread runs in {@link #time}; no-op outside one. Not a metric: {@link
     * #recordDocumentSize} is.
     */
    public void describeDocument(int depth, int bytes) {
        Span span = CURRENT_SPAN.get();
        if (span != null) {
            if (depth > 0) {
                span.tag(SPAN_DEPTH, depth);
            }
            span.tag(SPAN_SIZE, bytes);
        }
    }

    /** Times {@code work}; exceptions are recorded and rethrown. */
    public void run(Mode mode, Operation operation, Runnable work) {
        time(mode, operation, () -> {
            work.run();
            return null;
        });
    }

    /** Records one already measured duration. */
    public void record(Mode mode, Operation operation, String outcome, long nanos) {
        timer(mode, operation, outcome).record(nanos, TimeUnit.NANOSECONDS);
        ServerTiming.recordOperation(operation.tagValue(), nanos);
    }

    private Timer timer(Mode mode, Operation operation, String outcome) {
        if (!SUCCESS.equals(outcome)) {
            return timers.computeIfAbsent(
                    new TimerKey(mode, operation, outcome), k -> newTimer(mode, operation, outcome));
        }
        // the common case, by index: no key object, no record hashCode/equals per operation
        int i = mode.ordinal() * OPERATIONS + operation.ordinal();
        Timer timer = successTimers.get(i);
        if (timer == null) {
            // the registry answers the same timer to a racing second registration
            timer = newTimer(mode, operation, SUCCESS);
            successTimers.set(i, timer);
        }
        return timer;
    }

    private Timer newTimer(Mode mode, Operation operation, String outcome) {
        return Timer.builder(OPERATION_TIMER)
                .description("SPIFFE-IdT operation time")
                .tag("mode", mode.pathSegment())
                .tag("operation", operation.tagValue())
                .tag("outcome", outcome)
                .register(registry);
    }

    /**
     * Records the encoded size of a document of {@code depth} layers; inside {@link #time} also on the
     * operation's span ({@link #describeDocument}).
     */
    public void recordDocumentSize(Mode mode, int depth, int bytes) {
        describeDocument(depth, bytes);
        sizes.computeIfAbsent(new SizeKey(mode, depth), k -> DistributionSummary.builder(DOCUMENT_SIZE)
                        .description("Encoded SPIFFE-IdT document size")
                        .baseUnit("bytes")
                        .tag("mode", mode.pathSegment())
                        .tag("depth", Integer.toString(depth))
                        .register(registry))
                .record(bytes);
    }

    /**
     * Records the bytes of one call of {@code mode} to {@code downstream} (a workload name) at
     * {@code endpoint} (the call's path, a constant of the code): {@code sent} request bytes and
     * {@code received} answer bytes as the connection wrote and read them (docs/operations.md "Bytes
     * on the wire"), and {@code document} the characters of the document the request carried (none
     * when negative).
     */
    public void recordWireBytes(
            Mode mode, String downstream, String endpoint, long sent, long received, long document) {
        WireMeters meters = wire.computeIfAbsent(
                new WireKey(mode, downstream, endpoint), k -> new WireMeters(mode, downstream, endpoint));
        meters.sent.record(sent);
        meters.received.record(received);
        if (document >= 0) {
            meters.document().record(document);
        }
    }

    /**
     * The summaries of one (mode, downstream, endpoint): one look-up per call. The document size is
     * registered at the first call that carried a document, so an endpoint that never does has no
     * such series.
     */
    private final class WireMeters {
        private final Mode mode;
        private final String downstream;
        private final String endpoint;
        final DistributionSummary sent;
        final DistributionSummary received;
        private volatile DistributionSummary document;

        WireMeters(Mode mode, String downstream, String endpoint) {
            this.mode = mode;
            this.downstream = downstream;
            this.endpoint = endpoint;
            String bytes = "Bytes of a downstream call on the wire";
            this.sent = wireSummary(CLIENT_BYTES, bytes, mode, downstream, endpoint, "sent");
            this.received = wireSummary(CLIENT_BYTES, bytes, mode, downstream, endpoint, "received");
        }

        DistributionSummary document() {
            DistributionSummary d = document;
            if (d == null) {
                // the registry answers the same summary to a racing second registration
                d = wireSummary(
                        CLIENT_DOCUMENT_SIZE,
                        "Size of the document a downstream call carried",
                        mode,
                        downstream,
                        endpoint,
                        null);
                document = d;
            }
            return d;
        }
    }

    private DistributionSummary wireSummary(
            String name, String description, Mode mode, String downstream, String endpoint, String direction) {
        DistributionSummary.Builder b = DistributionSummary.builder(name)
                .description(description)
                .baseUnit("bytes")
                .tag("mode", mode.pathSegment())
                .tag("downstream", downstream)
                .tag("endpoint", endpoint);
        if (direction != null) {
            b.tag("direction", direction);
        }
        return b.register(registry);
    }

    /**
     * Counts one completed TLS handshake of an outbound client: a new connection to {@code
     * downstream} (a workload name) under the connection strategy {@code pooling} (its tag value).
     */
    public void countClientHandshake(String downstream, String pooling) {
        counters.computeIfAbsent(new CounterKey(CLIENT_HANDSHAKES, null, downstream, pooling), k -> Counter.builder(
                                CLIENT_HANDSHAKES)
                        .description("Completed TLS handshakes of outbound SPIFFE mTLS clients")
                        .tag("downstream", downstream)
                        .tag("pooling", pooling)
                        .register(registry))
                .increment();
    }

    /**
     * Counts one OAuth proof check by how the memo of verified proofs answered: {@code miss}
     * (verified in full), {@code hit} (the answer's proof verified before) or {@code unchanged} (the
     * asserting workload answered "unchanged" and the held proof still verified; no proof shipped).
     */
    public void countProofMemo(Mode mode, String result) {
        countMemo(
                PROOF_MEMO,
                "OAuth proof checks: verified in full (miss), answered by the memo of verified proofs"
                        + " (hit), or answered unchanged by introspection without the proof (unchanged)",
                mode,
                result);
    }

    private void countMemo(String name, String description, Mode mode, String result) {
        counters.computeIfAbsent(new CounterKey(name, mode, result, null), k -> Counter.builder(name)
                        .description(description)
                        .tag("mode", mode.pathSegment())
                        .tag("result", result)
                        .register(registry))
                .increment();
    }
}
