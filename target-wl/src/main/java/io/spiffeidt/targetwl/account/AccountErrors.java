package io.spiffeidt.targetwl.account;

import io.spiffeidt.core.ErrorCode;
import java.net.URI;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Maps the account rules to 400 problem details (code {@code MALFORMED}). */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class AccountErrors {

    @ExceptionHandler({InvalidAmountException.class, InvalidUserIdException.class})
    ProblemDetail invalid(IllegalArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle(ErrorCode.MALFORMED.name());
        problem.setType(URI.create("urn:spiffeidt:problem:malformed"));
        problem.setProperty("code", ErrorCode.MALFORMED.name());
        return problem;
    }
}
