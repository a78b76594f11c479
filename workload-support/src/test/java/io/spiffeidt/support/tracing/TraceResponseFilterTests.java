package io.spiffeidt.support.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** The W3C Trace Context Level 2 {@code traceresponse} header, from a real OpenTelemetry SDK tracer. */
class TraceResponseFilterTests {

    private final RecordingTracer recording = new RecordingTracer();
    private final Tracer tracer = recording.tracer();
    private final TraceResponseFilter filter = new TraceResponseFilter(tracer);

    @AfterEach
    void close() {
        recording.close();
    }

    @Test
    void filterWhenServerSpanCurrentThenTraceResponseNamesItsTraceAndSpan() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        Span server = tracer.nextSpan().name("http post").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(server)) {
            filter.doFilter(new MockHttpServletRequest("POST", "/api/dvid/balance"), response, new MockFilterChain());
        } finally {
            server.end();
        }

        assertThat(response.getHeader(TraceResponseFilter.HEADER))
                .isEqualTo("00-" + server.context().traceId() + "-"
                        + server.context().spanId() + "-01")
                .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
    }

    @Test
    void filterWhenNoSpanThenNoHeader() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();

        filter.doFilter(new MockHttpServletRequest("GET", "/"), response, new MockFilterChain());

        assertThat(response.getHeader(TraceResponseFilter.HEADER)).isNull();
    }

    @Test
    void headerValueWhenNoopSpanThenNone() {
        assertThat(TraceResponseFilter.headerValue(Tracer.NOOP.nextSpan())).isNull();
    }
}
