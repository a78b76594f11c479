package io.spiffeidt.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.tracing.RecordingTracer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every timed operation is a span (docs/tracing.md), on a real OpenTelemetry SDK tracer. */
class OperationMetricsTracingTests {

    private final RecordingTracer recording = new RecordingTracer();
    private final Tracer tracer = recording.tracer();
    private final OperationMetrics metrics = new OperationMetrics(new SimpleMeterRegistry(), tracer);

    @AfterEach
    void close() {
        recording.close();
    }

    private static String attribute(SpanData span, String key) {
        Object value = span.getAttributes().get(AttributeKey.stringKey(key));
        if (value == null) {
            Long number = span.getAttributes().get(AttributeKey.longKey(key));
            return number == null ? null : number.toString();
        }
        return value.toString();
    }

    @Test
    void timeWhenWorkSucceedsThenSpanNamedByOperationWithModeAndSuccess() {
        metrics.time(Mode.ID_MODE, Operation.EXTEND, () -> "done");

        assertThat(recording.ended()).singleElement().satisfies(span -> {
            assertThat(span.getName()).isEqualTo("extend");
            assertThat(attribute(span, OperationMetrics.SPAN_MODE)).isEqualTo("id-mode");
            assertThat(attribute(span, OperationMetrics.SPAN_OPERATION)).isEqualTo("extend");
            assertThat(attribute(span, OperationMetrics.SPAN_OUTCOME)).isEqualTo("success");
            assertThat(attribute(span, "error")).isNull();
        });
    }

    @Test
    void timeWhenVerificationFailsThenOutcomeIsTheCodeAndNotTheMessage() {
        assertThatThrownBy(() -> metrics.time(Mode.LSVID, Operation.VALIDATE, () -> {
                    throw new AssertionException(ErrorCode.BAD_SIGNATURE, 1, "secret-looking detail eyJhbGci");
                }))
                .isInstanceOf(AssertionException.class);

        SpanData span = recording.ended().get(0);
        assertThat(attribute(span, OperationMetrics.SPAN_OUTCOME)).isEqualTo("BAD_SIGNATURE");
        assertThat(attribute(span, "error")).isEqualTo("BAD_SIGNATURE");
        assertThat(span.getEvents()).isEmpty();
        assertThat(span.getAttributes().asMap().values())
                .noneMatch(v -> v.toString().contains("eyJhbGci"));
    }

    @Test
    void recordDocumentSizeWhenInsideOperationThenOnItsSpan() {
        metrics.time(Mode.ANON_MODE, Operation.MINT, () -> {
            metrics.recordDocumentSize(Mode.ANON_MODE, 1, 321);
            return null;
        });

        SpanData span = recording.ended().get(0);
        assertThat(attribute(span, OperationMetrics.SPAN_DEPTH)).isEqualTo("1");
        assertThat(attribute(span, OperationMetrics.SPAN_SIZE)).isEqualTo("321");
    }

    @Test
    void describeDocumentWhenOutsideOperationThenNoSpanTouched() {
        Span request = tracer.nextSpan().name("request").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
            metrics.time(Mode.DVID, Operation.DB_QUERY, () -> null);
            metrics.describeDocument(2, 100);
        } finally {
            request.end();
        }

        assertThat(recording.ended()).allSatisfy(span -> assertThat(attribute(span, OperationMetrics.SPAN_SIZE))
                .isNull());
    }

    @Test
    void timeWhenNestedThenInnerSpanIsChildOfOuterAndOfTheRequest() {
        Span request = tracer.nextSpan().name("request").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
            metrics.time(
                    Mode.DVID,
                    Operation.OAUTH_VERIFY,
                    () -> metrics.time(Mode.DVID, Operation.JWKS_FETCH, () -> {
                        metrics.describeDocument(1, 7);
                        return null;
                    }));
            metrics.describeDocument(1, 9);
        } finally {
            request.end();
        }

        List<SpanData> spans = recording.ended();
        SpanData inner = spans.get(0);
        SpanData outer = spans.get(1);
        SpanData root = spans.get(2);
        assertThat(inner.getName()).isEqualTo("jwks_fetch");
        assertThat(inner.getParentSpanId()).isEqualTo(outer.getSpanId());
        assertThat(outer.getParentSpanId()).isEqualTo(root.getSpanId());
        assertThat(inner.getTraceId()).isEqualTo(root.getTraceId());
        assertThat(attribute(inner, OperationMetrics.SPAN_SIZE)).isEqualTo("7");
        // after the inner operation the outer one is current again; after both, none
        assertThat(attribute(outer, OperationMetrics.SPAN_SIZE)).isNull();
        assertThat(attribute(root, OperationMetrics.SPAN_SIZE)).isNull();
    }

    @Test
    void timeWhenRequestTraceNotSampledThenNoOperationSpanButTimerAndServerTiming() {
        // Boot's default without an exporter: parent-based, sampling probability 0
        try (RecordingTracer unsampled = new RecordingTracer(Sampler.parentBased(Sampler.alwaysOff()))) {
            Tracer off = unsampled.tracer();
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            OperationMetrics quiet = new OperationMetrics(registry, off);
            ServerTiming.begin();
            Span request = off.nextSpan().name("request").start();
            try (Tracer.SpanInScope scope = off.withSpan(request)) {
                quiet.time(Mode.LSVID, Operation.VALIDATE, () -> {
                    quiet.recordDocumentSize(Mode.LSVID, 3, 900);
                    return quiet.time(Mode.LSVID, Operation.DB_QUERY, () -> null);
                });
                assertThatThrownBy(() -> quiet.time(Mode.LSVID, Operation.EXTEND, () -> {
                            throw new AssertionException(ErrorCode.BAD_SIGNATURE, 1, "bad");
                        }))
                        .isInstanceOf(AssertionException.class);
                // the request's span is still the current one
                assertThat(off.currentSpan().context().spanId())
                        .isEqualTo(request.context().spanId());
            } finally {
                request.end();
            }
            List<String> timed = ServerTiming.current().entries().stream()
                    .map(ServerTiming.Entry::name)
                    .toList();
            ServerTiming.end();

            // one sampling decision: the request's; none for the three operations
            assertThat(unsampled.decisions()).isEqualTo(1);
            assertThat(unsampled.ended()).isEmpty();
            assertThat(registry.get(OperationMetrics.OPERATION_TIMER)
                            .tags("mode", "lsvid", "operation", "validate", "outcome", "success")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(registry.get(OperationMetrics.OPERATION_TIMER)
                            .tags("mode", "lsvid", "operation", "extend", "outcome", "BAD_SIGNATURE")
                            .timer()
                            .count())
                    .isEqualTo(1);
            assertThat(timed).containsExactly("db_query", "validate", "extend");
        }
    }

    @Test
    void timeWhenRequestTraceSampledThenOneSpanPerOperation() {
        Span request = tracer.nextSpan().name("request").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
            metrics.time(
                    Mode.LSVID, Operation.VALIDATE, () -> metrics.time(Mode.LSVID, Operation.DB_QUERY, () -> null));
        } finally {
            request.end();
        }

        assertThat(recording.decisions()).isEqualTo(3);
        assertThat(recording.ended()).extracting(SpanData::getName).containsExactly("db_query", "validate", "request");
    }
}
