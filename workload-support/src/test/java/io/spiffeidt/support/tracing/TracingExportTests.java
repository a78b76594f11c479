package io.spiffeidt.support.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.zipkin.ZipkinSpanExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.zipkin.ZipkinWithOpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.zipkin.autoconfigure.ZipkinAutoConfiguration;

/**
 * Boot's own tracing auto-configurations with the class path of workload-support and {@link
 * TracingDefaults}: a tracer always, an exporter only for a configured endpoint (docs/tracing.md).
 */
class TracingExportTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withInitializer(context ->
                    new TracingDefaults().postProcessEnvironment(context.getEnvironment(), new SpringApplication()))
            .withConfiguration(AutoConfigurations.of(
                    ObservationAutoConfiguration.class,
                    OpenTelemetrySdkAutoConfiguration.class,
                    MicrometerTracingAutoConfiguration.class,
                    OpenTelemetryTracingAutoConfiguration.class,
                    OtlpTracingAutoConfiguration.class,
                    ZipkinAutoConfiguration.class,
                    ZipkinWithOpenTelemetryTracingAutoConfiguration.class,
                    TracingAutoConfiguration.class));

    @Test
    void exportWhenNoEndpointThenTracerButNoExporter() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(Tracer.class);
            assertThat(context).doesNotHaveBean(SpanExporter.class);
            assertThat(context.getBean(TracingProperties.class).traceResponse()).isTrue();
        });
    }

    @Test
    void exportWhenZipkinEndpointThenZipkinExporterOnly() {
        runner.withPropertyValues("management.tracing.export.zipkin.endpoint=http://127.0.0.1:1/api/v2/spans")
                .run(context -> {
                    assertThat(context).hasSingleBean(ZipkinSpanExporter.class);
                    assertThat(context).doesNotHaveBean(OtlpHttpSpanExporter.class);
                });
    }

    @Test
    void exportWhenOtlpEndpointThenOtlpExporterOnly() {
        runner.withPropertyValues("management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:1/v1/traces")
                .run(context -> {
                    assertThat(context).hasSingleBean(OtlpHttpSpanExporter.class);
                    assertThat(context).doesNotHaveBean(ZipkinSpanExporter.class);
                });
    }
}
