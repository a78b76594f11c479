package io.spiffeidt.support.problem;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * {@code /error} as a problem detail with a code, in place of Boot's {@code {"status":999}}: the
 * status the container forwarded with, or 404 {@code NOT_FOUND} when {@code /error} is asked for
 * directly.
 *
 * <p>Thread safety: stateless.
 */
@org.springframework.web.bind.annotation.RestController
public class ProblemErrorController implements ErrorController {

    /** Answers every method at {@code /error}. */
    @RequestMapping("/error")
    public ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int code = status instanceof Integer i && i >= 400 && i <= 599 ? i : 404;
        return ProblemDetailsAdvice.forStatus(code, null);
    }
}
