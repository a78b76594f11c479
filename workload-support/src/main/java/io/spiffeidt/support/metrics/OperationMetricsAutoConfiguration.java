package io.spiffeidt.support.metrics;

import ch.qos.logback.classic.LoggerContext;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.logging.LogbackMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.tracing.Tracer;
import io.spiffeidt.support.crypto.CryptoAutoConfiguration;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.IdentityProperties;
import java.util.List;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.logging.logback.LogbackMetricsAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Operation timers and document sizes ({@link OperationMetrics}) on Boot's {@link MeterRegistry},
 * plus the meter filters of docs/design.md "Metrics": common tags, histograms and the {@code
 * pooling} tag of HTTP client timers. There is no fallback registry: a workload without one fails
 * at start-up instead of recording into nowhere.
 */
@AutoConfiguration(
        after = {
            MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class,
            CryptoAutoConfiguration.class,
            OpenTelemetryTracingAutoConfiguration.class,
            MicrometerTracingAutoConfiguration.class
        },
        before = LogbackMetricsAutoConfiguration.class)
public class OperationMetricsAutoConfiguration {

    /**
     * {@code logback.events} counted by an appender ({@link LogbackEventMetrics}) instead of Boot's
     * turbo filter, which logback runs on every level check; Boot's binder backs off.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "ch.qos.logback.classic.LoggerContext")
    @Conditional(LogbackEventMetrics.LogbackCondition.class)
    public static class LogbackEventsConfiguration {

        /** The binder; Boot's metrics binding binds it to the registry. */
        @Bean
        @ConditionalOnMissingBean(LogbackMetrics.class)
        public LogbackEventMetrics logbackEventMetrics() {
            return new LogbackEventMetrics(Tags.empty(), (LoggerContext) LoggerFactory.getILoggerFactory());
        }
    }

    /**
     * Operation timers and document sizes on the application's meter registry, each operation a span
     * of the application's tracer (none: no spans).
     */
    @Bean
    @ConditionalOnMissingBean
    public OperationMetrics operationMetrics(MeterRegistry registry, ObjectProvider<Tracer> tracer) {
        return new OperationMetrics(registry, tracer.getIfAvailable(() -> Tracer.NOOP));
    }

    /** Common tags {@code workload} and {@code crypto.provider}. */
    @Bean
    public MeterFilter spiffeIdtCommonTags(IdentityProperties properties, SignatureProvider signatureProvider) {
        String workload = properties.workload() == null
                ? "unknown"
                : properties.workload().workloadName();
        return MeterFilter.commonTags(Tags.of("workload", workload, "crypto.provider", signatureProvider.name()));
    }

    /**
     * Histogram buckets for {@code spiffeidt.*} and the HTTP server and client timers: fixed
     * boundaries a factor of two apart ({@link #TIMER_BUCKETS_NANOS}, {@link #SIZE_BUCKETS_BYTES}),
     * which is what the dashboard's {@code histogram_quantile} and the report's estimates read.
     * Micrometer's default percentile histogram gave 69 buckets per timer and 276 per size summary,
     * and client-side percentiles three more series per meter that nothing read: a scrape of
     * subject-wl after one walk-through was 644 KB and 3,773 series, and at the thesis' 100 ms
     * interval that cost each workload a large share of a core while idle (deploy/README.md).
     */
    @Bean
    public MeterFilter spiffeIdtHistograms() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                String name = id.getName();
                if (!name.startsWith("spiffeidt.")
                        && !name.equals("http.server.requests")
                        && !name.equals("http.client.requests")) {
                    return config;
                }
                boolean timer = id.getType() == Meter.Type.TIMER || id.getType() == Meter.Type.LONG_TASK_TIMER;
                return DistributionStatisticConfig.builder()
                        .percentilesHistogram(false)
                        .percentiles(new double[0])
                        .serviceLevelObjectives(timer ? TIMER_BUCKETS_NANOS : SIZE_BUCKETS_BYTES)
                        .build()
                        .merge(config);
            }
        };
    }

    /** Timer bucket boundaries in nanoseconds: 100 µs to about 13 s, each twice the one before (18). */
    static final double[] TIMER_BUCKETS_NANOS = powersOfTwo(100_000, 18);

    /** Size bucket boundaries: 128 B to 1 MiB, each twice the one before (14 buckets). */
    static final double[] SIZE_BUCKETS_BYTES = powersOfTwo(128, 14);

    private static double[] powersOfTwo(double first, int count) {
        double[] b = new double[count];
        for (int i = 0; i < count; i++) {
            b[i] = first * Math.pow(2, i);
        }
        return b;
    }

    /**
     * Gives every {@code http.client.requests} meter a {@code pooling} tag ({@code none} for
     * clients not built by the downstream client factory), since Prometheus needs one tag key set
     * per name.
     */
    @Bean
    public MeterFilter spiffeIdtClientPoolingTag() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (id.getName().equals("http.client.requests") && id.getTag("pooling") == null) {
                    return id.withTags(List.of(Tag.of("pooling", "none")));
                }
                return id;
            }
        };
    }

    /**
     * The {@code Server-Timing} header of every answer ({@link ServerTiming}): on unless {@code
     * spiffeidt.server-timing.enabled=false}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnBooleanProperty(name = "spiffeidt.server-timing.enabled", matchIfMissing = true)
    @EnableConfigurationProperties(ServerTimingProperties.class)
    public static class ServerTimingConfiguration {

        /** Binds each request's timings; first of all filters, so {@code total} covers them. */
        @Bean
        public FilterRegistrationBean<ServerTimingFilter> serverTimingFilter() {
            FilterRegistrationBean<ServerTimingFilter> registration =
                    new FilterRegistrationBean<>(new ServerTimingFilter());
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
            return registration;
        }

        /** Writes the header before each answer's body. */
        @Bean
        public ServerTimingAdvice serverTimingAdvice() {
            return new ServerTimingAdvice();
        }
    }
}
