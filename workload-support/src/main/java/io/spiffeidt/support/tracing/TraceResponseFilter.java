package io.spiffeidt.support.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Writes the {@code traceresponse} header of W3C Trace Context Level 2 ({@code
 * 00-<trace-id>-<span-id>-<flags>}): the trace this request joined and this workload's server span
 * in it, so that a caller (the subject workload's page) can open the trace. Runs inside Boot's HTTP
 * server observation, whose span is the current one; sets the header before the chain, so it is
 * there whatever the answer.
 *
 * <p>Thread safety: stateless.
 */
public class TraceResponseFilter extends OncePerRequestFilter {

    /** The response header. */
    public static final String HEADER = "traceresponse";

    private final Tracer tracer;

    public TraceResponseFilter(Tracer tracer) {
        this.tracer = Objects.requireNonNull(tracer, "tracer");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String value = headerValue(tracer.currentSpan());
        if (value != null) {
            response.setHeader(HEADER, value);
        }
        chain.doFilter(request, response);
    }

    /** The header value for {@code span}, or {@code null} without a span or valid ids. */
    static String headerValue(Span span) {
        if (span == null) {
            return null;
        }
        TraceContext context = span.context();
        String traceId = context.traceId();
        String spanId = context.spanId();
        if (!isHex(traceId, 32) || !isHex(spanId, 16)) {
            return null;
        }
        boolean sampled = Boolean.TRUE.equals(context.sampled());
        return "00-" + traceId + "-" + spanId + (sampled ? "-01" : "-00");
    }

    private static boolean isHex(String s, int length) {
        if (s == null || s.length() != length) {
            return false;
        }
        boolean nonZero = false;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
            nonZero |= c != '0';
        }
        return nonZero;
    }
}
