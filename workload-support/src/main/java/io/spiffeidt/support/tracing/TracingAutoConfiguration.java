package io.spiffeidt.support.tracing;

import io.micrometer.tracing.Tracer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Traces across the workloads (docs/tracing.md). Boot's Micrometer Tracing over OpenTelemetry makes
 * the tracer, a span per HTTP request served and sent (the downstream clients start from Boot's
 * {@code RestClient.Builder}, whose observation writes the W3C {@code traceparent} header), and the
 * exporters; {@link TracingDefaults} keeps them off until an endpoint is configured. This adds the
 * settings of {@link TracingProperties} and the {@code traceresponse} header ({@link
 * TraceResponseFilter}); the operation spans come from {@link
 * io.spiffeidt.support.metrics.OperationMetrics}.
 */
@AutoConfiguration(after = {OpenTelemetryTracingAutoConfiguration.class, MicrometerTracingAutoConfiguration.class})
@EnableConfigurationProperties(TracingProperties.class)
public class TracingAutoConfiguration {

    /** The {@code traceresponse} header, unless {@code spiffeidt.tracing.trace-response=false}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnBean(Tracer.class)
    @ConditionalOnBooleanProperty(name = "spiffeidt.tracing.trace-response", matchIfMissing = true)
    public static class TraceResponseConfiguration {

        /** Right inside Boot's HTTP server observation (order {@code HIGHEST_PRECEDENCE + 1}). */
        static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 2;

        @Bean
        public FilterRegistrationBean<TraceResponseFilter> traceResponseFilter(Tracer tracer) {
            FilterRegistrationBean<TraceResponseFilter> registration =
                    new FilterRegistrationBean<>(new TraceResponseFilter(tracer));
            registration.setOrder(ORDER);
            return registration;
        }
    }
}
