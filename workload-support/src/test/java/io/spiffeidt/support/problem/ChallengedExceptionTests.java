package io.spiffeidt.support.problem;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * A refused WIT or WPT answers 401 with {@code WWW-Authenticate: WPT} (draft-ietf-wimse-wpt-02 §2.1),
 * whatever its code; one that verifies but is not for this request answers 403, without a challenge.
 */
class ChallengedExceptionTests {

    private final ProblemDetailsAdvice advice = new ProblemDetailsAdvice();

    @Test
    void problemWhen401ThenTheChallengeAndTheRefusalsCode() {
        ResponseEntity<ProblemDetail> answer = advice.challenged(
                new ChallengedException(new AssertionException(ErrorCode.REPLAYED, 1, "WPT jti already used"), "WPT"));

        assertThat(answer.getStatusCode().value()).isEqualTo(401);
        assertThat(answer.getHeaders().get(HttpHeaders.WWW_AUTHENTICATE)).containsExactly("WPT");
        assertThat(answer.getBody().getProperties()).containsEntry("code", "REPLAYED");
    }

    @ParameterizedTest
    @EnumSource(
            value = ErrorCode.class,
            names = {"MALFORMED", "UNSUPPORTED", "LIMIT_EXCEEDED"})
    void problemWhenTheCodeIs400ElsewhereThen401WithTheChallengeAndTheCode(ErrorCode code) {
        ResponseEntity<ProblemDetail> answer =
                advice.challenged(new ChallengedException(new AssertionException(code, 0, "WIT refused"), "WPT"));

        assertThat(answer.getStatusCode().value()).isEqualTo(401);
        assertThat(answer.getBody().getStatus()).isEqualTo(401);
        assertThat(answer.getHeaders().get(HttpHeaders.WWW_AUTHENTICATE)).containsExactly("WPT");
        assertThat(answer.getBody().getProperties()).containsEntry("code", code.name());
    }

    @Test
    void problemWhen403ThenNoChallenge() {
        ResponseEntity<ProblemDetail> answer = advice.challenged(new ChallengedException(
                new AssertionException(ErrorCode.WRONG_AUDIENCE, 1, "WPT aud is not this request's target URI"),
                "WPT"));

        assertThat(answer.getStatusCode().value()).isEqualTo(403);
        assertThat(answer.getHeaders().containsHeader(HttpHeaders.WWW_AUTHENTICATE))
                .isFalse();
        assertThat(answer.getBody().getProperties()).containsEntry("code", "WRONG_AUDIENCE");
    }
}
