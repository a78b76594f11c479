package io.spiffeidt.support.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketException;
import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotWritableException;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;

/**
 * A client that closed the connection before the answer was written (Prometheus past its scrape
 * timeout) is told apart from a failure of ours: no answer, one line at DEBUG, no stack trace; the
 * exceptions are the ones Tomcat and Spring MVC throw for it.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientGoneTests {

    private static final ProblemDetailsAdvice ADVICE = new ProblemDetailsAdvice();

    @Test
    void clientGoneWhenSpringSaysResponseNotUsableThenTrue() {
        assertThat(ProblemDetailsAdvice.clientGone(new AsyncRequestNotUsableException(
                        "ServletOutputStream failed to write",
                        new ClientAbortException(new IOException("Broken pipe")))))
                .isTrue();
    }

    @Test
    void clientGoneWhenTomcatAbortInCauseChainThenTrue() {
        assertThat(ProblemDetailsAdvice.clientGone(
                        new HttpMessageNotWritableException("could not write", new ClientAbortException())))
                .isTrue();
    }

    @Test
    void clientGoneWhenPeerResetSocketThenTrue() {
        assertThat(ProblemDetailsAdvice.clientGone(
                        new IOException("write failed", new SocketException("Connection reset by peer"))))
                .isTrue();
        assertThat(ProblemDetailsAdvice.clientGone(new IOException(new SocketException("Broken pipe"))))
                .isTrue();
    }

    @Test
    void clientGoneWhenOtherFailureThenFalse() {
        assertThat(ProblemDetailsAdvice.clientGone(new IllegalStateException("boom")))
                .isFalse();
        assertThat(ProblemDetailsAdvice.clientGone(new IOException("No space left on device")))
                .isFalse();
        // a downstream that reset our outbound call is a downstream failure, not a client gone
        assertThat(ProblemDetailsAdvice.clientGone(
                        new ResourceAccessException("I/O error", new SocketException("Connection reset by peer"))))
                .isFalse();
    }

    @Test
    void otherWhenClientGoneThenNoAnswerAndOneDebugLineWithoutStackTrace(CapturedOutput output) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/actuator/prometheus");
        MockHttpServletResponse response = new MockHttpServletResponse();
        LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
        logging.setLogLevel(ProblemDetailsAdvice.class.getName(), LogLevel.DEBUG);
        ResponseEntity<ProblemDetail> answer;
        try {
            answer = ADVICE.other(
                    new AsyncRequestNotUsableException(
                            "ServletOutputStream failed to write",
                            new ClientAbortException(new IOException("Broken pipe"))),
                    request,
                    response);
        } finally {
            logging.setLogLevel(ProblemDetailsAdvice.class.getName(), null);
        }

        assertThat(answer).isNull();
        assertThat(response.getContentAsByteArray()).isEmpty();
        assertThat(output.getAll())
                .containsOnlyOnce(
                        "client closed the connection before the answer to GET /actuator/prometheus was written")
                .doesNotContain("ERROR")
                .doesNotContain("\tat ")
                .doesNotContain("internal error");
    }

    @Test
    void otherWhenOwnFailureThenInternalErrorLoggedWithStackTrace(CapturedOutput output) throws Exception {
        var answer = ADVICE.other(
                new IllegalStateException("boom"), new MockHttpServletRequest(), new MockHttpServletResponse());

        assertThat(answer).isNotNull();
        assertThat(answer.getStatusCode().value()).isEqualTo(500);
        assertThat(output.getAll()).contains("internal error").contains("\tat ");
    }
}
