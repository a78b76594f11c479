package io.spiffeidt.support.server;

import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Overload and deadline settings of a workload ({@code spiffeidt.admission.*}; docs/operations.md
 * "Overload and deadlines").
 *
 * Defaults are written once, in the {@link DefaultValue} annotations.
 *
 * @param enabled whether requests are admitted through the admission filter at all
 * @param maxConcurrent requests served at once
 * @param queueSize requests that may wait for a slot; more get 503 at once
 * @param queueWait how long a request waits for a slot before 503
 * @param requestTimeout the budget of a request that comes without a {@code Spiffeidt-Timeout-Ms}
 *     header, and the most a header may give
 * @param hopMargin what a downstream call's deadline is shorter than this workload's: the time for
 *     its answer to come back
 */
@ConfigurationProperties("spiffeidt.admission")
public record AdmissionProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("8") int maxConcurrent,
        @DefaultValue("16") int queueSize,
        @DefaultValue("500ms") Duration queueWait,
        @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("250ms") Duration hopMargin) {

    public AdmissionProperties {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("spiffeidt.admission.max-concurrent must be at least 1");
        }
        if (queueSize < 0) {
            throw new IllegalArgumentException("spiffeidt.admission.queue-size must not be negative");
        }
        if (queueWait == null || requestTimeout == null || hopMargin == null) {
            throw new IllegalArgumentException("spiffeidt.admission durations must be set");
        }
        if (queueWait.isNegative()
                || requestTimeout.isNegative()
                || requestTimeout.isZero()
                || hopMargin.isNegative()) {
            throw new IllegalArgumentException("spiffeidt.admission durations must be positive");
        }
    }

    /** The defaults. */
    public static AdmissionProperties defaults() {
        return new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("spiffeidt.admission", AdmissionProperties.class);
    }
}
