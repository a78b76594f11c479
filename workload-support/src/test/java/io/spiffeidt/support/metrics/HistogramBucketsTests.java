package io.spiffeidt.support.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistogramBucketsTests {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    HistogramBucketsTests() {
        registry.config().meterFilter(new OperationMetricsAutoConfiguration().spiffeIdtHistograms());
    }

    private List<String> lines(String prefix) {
        return registry.scrape().lines().filter(l -> l.startsWith(prefix)).toList();
    }

    @Test
    void scrapeWhenOperationTimedThenEighteenBucketsAndInfinityAndNoQuantiles() {
        Timer.builder(OperationMetrics.OPERATION_TIMER)
                .tag("mode", "lsvid")
                .register(registry)
                .record(Duration.ofMillis(3));

        assertThat(lines("spiffeidt_operation_seconds_bucket")).hasSize(19);
        assertThat(lines("spiffeidt_operation_seconds{"))
                .as("client-side percentiles")
                .isEmpty();
        // 3 ms lies between the boundaries 1.6 ms and 3.2 ms
        assertThat(lines("spiffeidt_operation_seconds_bucket{mode=\"lsvid\",le=\"0.0016\"}"))
                .singleElement()
                .satisfies(l -> assertThat(l).endsWith(" 0"));
        assertThat(lines("spiffeidt_operation_seconds_bucket{mode=\"lsvid\",le=\"0.0032\"}"))
                .singleElement()
                .satisfies(l -> assertThat(l).endsWith(" 1"));
    }

    @Test
    void scrapeWhenHttpServerTimedThenSameTimerBuckets() {
        Timer.builder("http.server.requests").register(registry).record(Duration.ofSeconds(20));

        assertThat(lines("http_server_requests_seconds_bucket")).hasSize(19);
        assertThat(lines("http_server_requests_seconds_bucket{le=\"+Inf\"}"))
                .singleElement()
                .satisfies(l -> assertThat(l).endsWith(" 1"));
    }

    @Test
    void scrapeWhenDocumentSizeRecordedThenFourteenByteBuckets() {
        DistributionSummary.builder(OperationMetrics.DOCUMENT_SIZE)
                .baseUnit("bytes")
                .register(registry)
                .record(3000);

        assertThat(lines("spiffeidt_document_size_bytes_bucket")).hasSize(15);
        assertThat(lines("spiffeidt_document_size_bytes_bucket{le=\"4096.0\"}"))
                .singleElement()
                .satisfies(l -> assertThat(l).endsWith(" 1"));
    }

    @Test
    void scrapeWhenOtherTimerThenLeftWithoutHistogram() {
        Timer.builder("jvm.gc.pause").register(registry).record(Duration.ofMillis(3));

        assertThat(lines("jvm_gc_pause_seconds_bucket")).isEmpty();
    }
}
