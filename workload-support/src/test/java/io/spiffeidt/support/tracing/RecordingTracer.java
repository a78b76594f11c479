package io.spiffeidt.support.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real OpenTelemetry SDK tracer behind Micrometer's bridge, as Boot wires it, that keeps every
 * ended span in memory instead of exporting it. For tests.
 */
public final class RecordingTracer implements AutoCloseable {

    private final List<SpanData> ended = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(new SpanProcessor() {
                @Override
                public void onStart(Context parentContext, ReadWriteSpan span) {}

                @Override
                public boolean isStartRequired() {
                    return false;
                }

                @Override
                public void onEnd(ReadableSpan span) {
                    ended.add(span.toSpanData());
                }

                @Override
                public boolean isEndRequired() {
                    return true;
                }

                @Override
                public CompletableResultCode shutdown() {
                    return CompletableResultCode.ofSuccess();
                }
            })
            .build();
    private final Tracer tracer =
            new OtelTracer(provider.get("spiffeidt-test"), new OtelCurrentTraceContext(), event -> {});

    /** The Micrometer tracer. */
    public Tracer tracer() {
        return tracer;
    }

    /** The spans ended so far, in the order they ended. */
    public List<SpanData> ended() {
        return List.copyOf(ended);
    }

    @Override
    public void close() {
        provider.close();
    }
}
