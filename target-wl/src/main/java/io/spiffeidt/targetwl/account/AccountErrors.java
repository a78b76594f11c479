package io.spiffeidt.targetwl.account;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.server.RequestRefusedException;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps the account rules to 400 problem details (code {@code MALFORMED}), and an account database out
 * of reach to 503 {@code UPSTREAM_UNAVAILABLE} with {@code Retry-After}: no connection, a connection
 * that broke, a transaction that could not begin, roll back or commit. The deposit was rolled back or
 * its outcome is unknown; either way a retry with the same {@code Idempotency-Key} applies it at most
 * once (docs/formats/common.md "Idempotent deposits"), so the caller is told to retry, not that the
 * server failed.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class AccountErrors {

    private static final Logger log = LoggerFactory.getLogger(AccountErrors.class);

    @ExceptionHandler({InvalidAmountException.class, InvalidUserIdException.class})
    ProblemDetail invalid(IllegalArgumentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle(ErrorCode.MALFORMED.name());
        problem.setType(URI.create("urn:spiffeidt:problem:malformed"));
        problem.setProperty("code", ErrorCode.MALFORMED.name());
        return problem;
    }

    /** The account database cannot be reached: 503, retry later. */
    @ExceptionHandler({
        DataAccessResourceFailureException.class,
        TransientDataAccessException.class,
        CannotCreateTransactionException.class,
        TransactionSystemException.class
    })
    ResponseEntity<ProblemDetail> databaseUnavailable(RuntimeException e) {
        // the exception's message may quote SQL or the URL: the log names its type only
        log.info(
                "request failed: UPSTREAM_UNAVAILABLE: account database unavailable ({})",
                e.getClass().getSimpleName());
        ProblemDetail problem =
                ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, "account database unavailable");
        problem.setTitle(ErrorCode.UPSTREAM_UNAVAILABLE.name());
        problem.setType(URI.create("urn:spiffeidt:problem:upstream_unavailable"));
        problem.setProperty("code", ErrorCode.UPSTREAM_UNAVAILABLE.name());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(RequestRefusedException.RETRY_AFTER_SECONDS))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
