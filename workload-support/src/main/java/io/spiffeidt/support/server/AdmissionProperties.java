package io.spiffeidt.support.server;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Overload and deadline settings of a workload ({@code spiffeidt.admission.*}; docs/operations.md
 * "Overload and deadlines").
 *
 * @param enabled whether requests are admitted through {@link AdmissionFilter} at all (default true)
 * @param maxConcurrent requests served at once (default 16)
 * @param queueSize requests that may wait for a slot (default 32); more get 503 at once
 * @param queueWait how long a request waits for a slot before 503 (default 500 ms)
 * @param requestTimeout the budget of a request that comes without {@value Deadline#HEADER}, and
 *     the most a header may give (default 10 s)
 * @param hopMargin what a downstream call's deadline is shorter than this workload's (default 250
 *     ms): the time for its answer to come back
 */
@ConfigurationProperties("spiffeidt.admission")
public record AdmissionProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("16") int maxConcurrent,
        @DefaultValue("32") int queueSize,
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
        queueWait = queueWait == null ? Duration.ofMillis(500) : queueWait;
        requestTimeout = requestTimeout == null ? Duration.ofSeconds(10) : requestTimeout;
        hopMargin = hopMargin == null ? Duration.ofMillis(250) : hopMargin;
        if (queueWait.isNegative()
                || requestTimeout.isNegative()
                || requestTimeout.isZero()
                || hopMargin.isNegative()) {
            throw new IllegalArgumentException("spiffeidt.admission durations must be positive");
        }
    }

    /** The defaults. */
    public static AdmissionProperties defaults() {
        return new AdmissionProperties(true, 16, 32, null, null, null);
    }
}
