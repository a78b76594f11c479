package io.spiffeidt.support.tracing;

import java.net.URI;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Traces ({@code spiffeidt.tracing.*}, docs/tracing.md). Where spans go is Boot's own setting
 * ({@code management.opentelemetry.tracing.export.otlp.endpoint}, {@code
 * management.tracing.export.zipkin.endpoint}); these are the parts of the project's own.
 *
 * @param traceResponse whether every answer carries the W3C Trace Context Level 2 {@code
 *     traceresponse} header naming the request's trace (default on; switch it off where callers must
 *     not learn trace ids)
 * @param uiUrl where a person opens one trace: an http(s) URL in which {traceId} stands for the trace
 *     id, e.g. http://localhost:9411/zipkin/traces/{traceId} for Zipkin's UI; the subject workload's
 *     page links each answer's trace there; unset: the page shows the trace id without a link
 */
@ConfigurationProperties("spiffeidt.tracing")
public record TracingProperties(@DefaultValue("true") boolean traceResponse, String uiUrl) {

    /** The placeholder of the trace id in {@link #uiUrl()}. */
    public static final String TRACE_ID = "{traceId}";

    /** Checks that the trace UI URL is an absolute http(s) URL with the trace id placeholder. */
    public TracingProperties {
        if (uiUrl != null && !uiUrl.isBlank()) {
            if (!uiUrl.contains(TRACE_ID)) {
                throw new IllegalArgumentException("spiffeidt.tracing.ui-url must contain " + TRACE_ID);
            }
            URI uri = URI.create(uiUrl.replace(TRACE_ID, "0"));
            String scheme = uri.getScheme();
            if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || uri.getHost() == null) {
                throw new IllegalArgumentException("spiffeidt.tracing.ui-url must be an absolute http(s) URL");
            }
        } else {
            uiUrl = null;
        }
    }
}
