package io.spiffeidt.support.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real OpenTelemetry SDK tracer behind Micrometer's bridge, as Boot wires it, that keeps every
 * ended span in memory instead of exporting it. For tests.
 */
public final class RecordingTracer implements AutoCloseable {

    private final List<SpanData> ended = new CopyOnWriteArrayList<>();
    private final AtomicInteger decisions = new AtomicInteger();
    private final SdkTracerProvider provider;
    private final Tracer tracer;

    /** Records every span (the SDK's default sampler: parent-based, always on at the root). */
    public RecordingTracer() {
        this(Sampler.parentBased(Sampler.alwaysOn()));
    }

    /** Samples by {@code sampler}, counting its decisions ({@link #decisions}). */
    public RecordingTracer(Sampler sampler) {
        this.provider = SdkTracerProvider.builder()
                .setSampler(new Sampler() {
                    @Override
                    public SamplingResult shouldSample(
                            Context parentContext,
                            String traceId,
                            String name,
                            SpanKind spanKind,
                            Attributes attributes,
                            List<LinkData> parentLinks) {
                        decisions.incrementAndGet();
                        return sampler.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
                    }

                    @Override
                    public String getDescription() {
                        return "counting " + sampler.getDescription();
                    }
                })
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
        this.tracer = new OtelTracer(provider.get("spiffeidt-test"), new OtelCurrentTraceContext(), event -> {});
    }

    /** How many spans were started, recorded or not (the sampler's decisions). */
    public int decisions() {
        return decisions.get();
    }

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
