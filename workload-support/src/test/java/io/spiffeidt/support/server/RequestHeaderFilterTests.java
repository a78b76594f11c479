package io.spiffeidt.support.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.support.problem.ProblemErrorReportValve;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

@ExtendWith(OutputCaptureExtension.class)
class RequestHeaderFilterTests {

    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyMDAwMSJ9.c2lnbmF0dXJl";

    @ParameterizedTest
    @ValueSource(chars = {'\u0085', '\u009f', '\u0000', '\u007f', '\n', '\u0001'})
    void filterWhenAuthorizationHoldsAControlCharacterThen400MalformedNamingTheHeaderNotTheValue(
            char bad, CapturedOutput output) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/dvid/balance");
        request.addHeader("Authorization", "Bearer " + TOKEN + bad);
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        new RequestHeaderFilter().doFilter(request, response, chain);

        assertThat(chain.getRequest()).as("the request went no further").isNull();
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getHeader("WWW-Authenticate")).isEqualTo("Bearer error=\"invalid_request\"");
        assertThat(response.getContentAsString())
                .contains("\"code\":\"MALFORMED\"")
                .contains("\"header\":\"Authorization\"")
                .doesNotContain("eyJ");
        assertThat(output.getAll()).contains("Authorization").doesNotContain("eyJ");
    }

    @Test
    void filterWhenIdempotencyKeyHoldsAC1ByteThen400IdempotencyKeyInvalid() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/dvid/deposit");
        request.addHeader("Idempotency-Key", "\"k\u0085\"");
        MockHttpServletResponse response = new MockHttpServletResponse();

        new RequestHeaderFilter().doFilter(request, response, new MockFilterChain());

        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getHeader("WWW-Authenticate")).isNull();
        assertThat(response.getContentAsString()).contains("\"code\":\"IDEMPOTENCY_KEY_INVALID\"");
    }

    @Test
    void filterWhenHeadersAllowedThenRequestPassesUnchanged() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/dvid/deposit");
        request.addHeader("Authorization", "Bearer " + TOKEN);
        request.addHeader("X-Note", "caf\u00e9\tand a tab");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();

        new RequestHeaderFilter().doFilter(request, response, chain);

        assertThat(chain.getRequest()).isSameAs(request);
        assertThat(response.getStatus()).isEqualTo(200);
    }

    @Test
    void filterWhenHeaderNameIsNoTokenThenRefusedWithoutRepeatingIt() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/x");
        request.addHeader("X-\"quoted\"", "v\u0085");
        MockHttpServletResponse response = new MockHttpServletResponse();

        new RequestHeaderFilter().doFilter(request, response, new MockFilterChain());

        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(response.getContentAsString()).doesNotContain("quoted").doesNotContain("\"header\"");
    }

    @Test
    void refusedHeaderWhenTomcatNamesTheLineThenItsNameOnly() {
        IllegalArgumentException tomcat = new IllegalArgumentException(
                "The HTTP header line [Idempotency-Key: \"abc\u0000\"] does not conform to RFC 9112.");

        assertThat(ProblemErrorReportValve.refusedHeader(tomcat)).isEqualTo("Idempotency-Key");
        assertThat(ProblemErrorReportValve.refusedHeader(new IllegalArgumentException("Invalid character [x]")))
                .isNull();
        assertThat(ProblemErrorReportValve.refusedHeader(null)).isNull();
    }
}
