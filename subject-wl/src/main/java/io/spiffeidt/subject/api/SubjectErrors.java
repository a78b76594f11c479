package io.spiffeidt.subject.api;

import io.spiffeidt.support.problem.ProblemDetailsAdvice;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Problem details for the subject workload's own failures (the rest is workload-support's). */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class SubjectErrors {

    private static final Logger log = LoggerFactory.getLogger(SubjectErrors.class);

    @ExceptionHandler(UnknownModeException.class)
    ProblemDetail unknown(UnknownModeException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        problem.setTitle("Unknown mode");
        problem.setType(URI.create("urn:spiffeidt:problem:not_found"));
        problem.setProperty("code", "NOT_FOUND");
        return problem;
    }

    /**
     * A header value the firewall refuses when a controller reads it: 400 {@code MALFORMED}, logged
     * without the exception, whose message quotes the value (for {@code Authorization}, the access
     * token). workload-support's {@code RequestHeaderFilter} refuses such headers before; this is the
     * second line.
     */
    @ExceptionHandler(RequestRejectedException.class)
    ResponseEntity<ProblemDetail> rejected(RequestRejectedException e) {
        log.info("request refused by the firewall (MALFORMED)");
        return ProblemDetailsAdvice.forStatus(400, "the request holds a character or a path that is not allowed");
    }

    @ExceptionHandler(MissingBearerException.class)
    ResponseEntity<ProblemDetail> missingBearer(MissingBearerException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, e.getMessage());
        problem.setTitle("Bearer token required");
        problem.setType(URI.create("urn:spiffeidt:problem:token_required"));
        problem.setProperty("code", "TOKEN_REQUIRED");
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .body(problem);
    }
}
