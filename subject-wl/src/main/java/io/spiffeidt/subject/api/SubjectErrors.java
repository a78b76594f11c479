package io.spiffeidt.subject.api;

import java.net.URI;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Problem details for the subject workload's own failures (the rest is workload-support's). */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class SubjectErrors {

    @ExceptionHandler(UnknownModeException.class)
    ProblemDetail unknown(UnknownModeException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        problem.setTitle("Unknown mode");
        problem.setType(URI.create("urn:spiffeidt:problem:not_found"));
        problem.setProperty("code", "NOT_FOUND");
        return problem;
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
