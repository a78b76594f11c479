package io.spiffeidt.idp.api;

import java.net.URI;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns errors of the IdP's own endpoints into RFC 9457 problem details: failed authentication
 * becomes 401 (the same answer for an unknown user and a wrong password), malformed requests get
 * the standard Spring MVC problems (400, 405, 415...). The authorization-server endpoints are
 * filters, not controllers: they answer with OAuth 2.0 errors of their own.
 */
@RestControllerAdvice
class IdpProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(IdpProblemHandler.class);

    /** The problem type of a failed {@code /dev/token} authentication. */
    static final URI INVALID_CREDENTIALS = URI.create("urn:spiffeidt:idp:invalid-credentials");

    /**
     * A form parameter Tomcat cannot decode, or a header the firewall refuses: 400, logged without the
     * exception, whose message quotes the value (a password, a token).
     */
    @ExceptionHandler({InvalidParameterException.class, RequestRejectedException.class})
    ResponseEntity<ProblemDetail> malformed(RuntimeException exception) {
        log.info("request refused: a parameter or header cannot be read");
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "malformed request");
        problem.setTitle("Bad Request");
        return ResponseEntity.badRequest()
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    @ExceptionHandler(AuthenticationException.class)
    ResponseEntity<ProblemDetail> unauthorized(AuthenticationException exception) {
        ProblemDetail problem =
                ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, "unknown user or wrong password");
        problem.setType(INVALID_CREDENTIALS);
        problem.setTitle("Invalid credentials");
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                // RFC 9110 requires a challenge on 401; credentials go in the form body
                .header(HttpHeaders.WWW_AUTHENTICATE, "Form realm=\"spiffeidt-idp\"")
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
