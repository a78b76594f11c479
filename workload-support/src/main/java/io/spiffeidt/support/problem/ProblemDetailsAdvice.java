package io.spiffeidt.support.problem;

import io.spiffe.exception.X509SourceException;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.caller.CallerNotAllowedException;
import io.spiffeidt.support.identity.SvidKeyUnsupportedException;
import io.spiffeidt.support.oauth.InvalidAccessTokenException;
import io.spiffeidt.support.oauth.MissingAccessTokenException;
import io.spiffeidt.support.server.RequestBodyLimitFilter;
import io.spiffeidt.support.server.RequestRefusedException;
import io.spiffeidt.support.server.UnreachableException;
import jakarta.validation.ConstraintViolationException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.URI;
import java.util.Locale;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.BindException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Maps every failure to an RFC 9457 problem detail (docs/formats/common.md "Errors"), at the lowest
 * precedence so workloads can add more specific advice.
 *
 * <ul>
 *   <li>{@link AssertionException}: status {@link ErrorCode#httpStatus()}, title = code name,
 *       detail = message, property {@code code}, type {@code urn:spiffeidt:problem:<code-lower>}.
 *       Two refinements: {@code LIMIT_EXCEEDED} is 413 when its message reports the encoded size
 *       ({@link io.spiffeidt.core.Limits#checkEncodedSize} says "encoded size ..."), else 400;
 *       {@code UPSTREAM_UNAVAILABLE} is 503 with {@code Retry-After} when the peer gave no answer at
 *       all (connection refused, reset or closed before an answer, {@link UnreachableException}: a
 *       downstream's own 503, a database out of reach; the Workload API without an SVID in time), 504
 *       after a socket time-out, else 502 (the peer answered something unusable).
 *   <li>Unreadable JSON, missing parameter, wrong type, failed validation: 400, code {@code
 *       MALFORMED}; a request body over 1 MiB: 413 {@code LIMIT_EXCEEDED} (see {@link
 *       RequestBodyLimitFilter}).
 *   <li>Other Spring MVC errors keep their status without a code: 404 unknown path, 405 method, 406,
 *       415 media type.
 *   <li>{@link CallerNotAllowedException}: 403 "Caller not allowed", code {@code CALLER_NOT_ALLOWED}.
 *   <li>{@link MissingAccessTokenException}: 401 {@code TOKEN_REQUIRED} with {@code
 *       WWW-Authenticate: Bearer} (RFC 6750 section 3.1: no error code for a request without one).
 *   <li>A client that closed the connection before the answer was written (a scrape past its
 *       timeout): no answer, one line at DEBUG, no stack trace.
 *   <li>Anything else: 500 "internal error" without details; logged with its stack trace.
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class ProblemDetailsAdvice {

    private static final Logger log = LoggerFactory.getLogger(ProblemDetailsAdvice.class);

    /** The RFC 6750 challenge of a refused access token. */
    public static final String INVALID_TOKEN_CHALLENGE = "Bearer error=\"invalid_token\"";

    /** The code of a refused mTLS caller (403). */
    public static final String CALLER_NOT_ALLOWED = "CALLER_NOT_ALLOWED";

    /** The {@code type} URI prefix of coded problems. */
    public static final String TYPE_PREFIX = "urn:spiffeidt:problem:";

    /** A document / verification failure. */
    @ExceptionHandler(AssertionException.class)
    public ResponseEntity<ProblemDetail> assertion(AssertionException e) {
        ErrorCode code = e.code();
        log.info("request failed: {}", e.getMessage());
        int status = status(e);
        ResponseEntity<ProblemDetail> problem = coded(status, code, e.getMessage());
        if (status == 503) {
            // unreachable now, perhaps not in a second: a client may retry (a deposit with its Idempotency-Key)
            return ResponseEntity.status(503)
                    .header(HttpHeaders.RETRY_AFTER, Integer.toString(RequestRefusedException.RETRY_AFTER_SECONDS))
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem.getBody());
        }
        return problem;
    }

    /**
     * A refused credential of a scheme that answers its 401 with a challenge ({@code WWW-Authenticate:
     * WPT}, draft-ietf-wimse-wpt-02 §2.1), otherwise as {@link #assertion}.
     */
    @ExceptionHandler(ChallengedException.class)
    public ResponseEntity<ProblemDetail> challenged(ChallengedException e) {
        ResponseEntity<ProblemDetail> problem = assertion(e);
        if (problem.getStatusCode().value() == 403) {
            return problem;
        }
        // a credential that does not verify, however malformed: 401 with the challenge, its own code
        ProblemDetail body = problem.getBody();
        if (body != null) {
            body.setStatus(401);
        }
        return ResponseEntity.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, e.scheme())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem.getBody());
    }

    /**
     * An access token that does not verify: 401 with {@code WWW-Authenticate: Bearer
     * error="invalid_token"} (RFC 6750 section 3) and the specific code.
     */
    @ExceptionHandler(InvalidAccessTokenException.class)
    public ResponseEntity<ProblemDetail> invalidAccessToken(InvalidAccessTokenException e) {
        log.info("access token refused: {} {}", e.code(), e.getMessage());
        ResponseEntity<ProblemDetail> coded = coded(401, e.code(), e.getMessage());
        return ResponseEntity.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, INVALID_TOKEN_CHALLENGE)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(coded.getBody());
    }

    /**
     * No bearer access token where one is required: 401 with {@code WWW-Authenticate: Bearer} and no
     * error code in it (RFC 6750 section 3.1), code {@code TOKEN_REQUIRED}.
     */
    @ExceptionHandler(MissingAccessTokenException.class)
    public ResponseEntity<ProblemDetail> missingAccessToken(MissingAccessTokenException e) {
        log.info("access token missing: {}", MissingAccessTokenException.CODE);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, e.getMessage());
        problem.setTitle("Bearer token required");
        problem.setType(URI.create(TYPE_PREFIX + MissingAccessTokenException.CODE.toLowerCase(Locale.ROOT)));
        problem.setProperty("code", MissingAccessTokenException.CODE);
        return ResponseEntity.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    /** No capacity (503 with {@code Retry-After}) or no time left (504), here or downstream. */
    @ExceptionHandler(RequestRefusedException.class)
    public ResponseEntity<ProblemDetail> refused(RequestRefusedException e) {
        log.info("request refused: {} {}", e.code(), e.getMessage());
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(e.status()), e.getMessage());
        HttpStatus known = HttpStatus.resolve(e.status());
        problem.setTitle(known != null ? known.getReasonPhrase() : e.code());
        problem.setType(URI.create(TYPE_PREFIX + e.code().toLowerCase(Locale.ROOT)));
        problem.setProperty("code", e.code());
        ResponseEntity.BodyBuilder builder =
                ResponseEntity.status(e.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (e.status() == 503) {
            builder.header(HttpHeaders.RETRY_AFTER, Integer.toString(RequestRefusedException.RETRY_AFTER_SECONDS));
        }
        return builder.body(problem);
    }

    /** A mode this workload's SVID key cannot sign: 501, this deployment's limit. */
    @ExceptionHandler(SvidKeyUnsupportedException.class)
    public ResponseEntity<ProblemDetail> svidKeyUnsupported(SvidKeyUnsupportedException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_IMPLEMENTED, e.getMessage());
        problem.setTitle("Mode not served with this SVID key");
        problem.setType(URI.create(TYPE_PREFIX + SvidKeyUnsupportedException.CODE.toLowerCase(Locale.ROOT)));
        problem.setProperty("code", SvidKeyUnsupportedException.CODE);
        problem.setProperty("mode", e.mode().pathSegment());
        return entity(problem);
    }

    /** The mTLS peer may not call the endpoint. */
    @ExceptionHandler(CallerNotAllowedException.class)
    public ResponseEntity<ProblemDetail> callerNotAllowed(CallerNotAllowedException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, e.getMessage());
        problem.setTitle("Caller not allowed");
        problem.setType(URI.create(TYPE_PREFIX + "caller_not_allowed"));
        problem.setProperty("code", CALLER_NOT_ALLOWED);
        return entity(problem);
    }

    /** A body that is not the expected JSON. */
    @ExceptionHandler({HttpMessageNotReadableException.class, TypeMismatchException.class})
    public ResponseEntity<ProblemDetail> unreadable(Exception e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof RequestBodyLimitFilter.BodyTooLargeException) {
                return coded(413, ErrorCode.LIMIT_EXCEEDED, "LIMIT_EXCEEDED: request body over the limit");
            }
        }
        return coded(400, ErrorCode.MALFORMED, "request body or parameter cannot be read");
    }

    /**
     * Spring MVC errors that carry their own status ({@link ErrorResponse}: 404, 405, 406, 415, and
     * 400 for binding / validation, which gets the code MALFORMED), validation failures, and
     * anything else (500 without details, logged with its stack trace).
     */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<ProblemDetail> other(
            Exception e,
            jakarta.servlet.http.HttpServletRequest request,
            jakarta.servlet.http.HttpServletResponse response)
            throws java.io.IOException {
        if (clientGone(e)) {
            // e.g. Prometheus after its scrape timeout: nobody is left to read an answer or a problem
            log.debug(
                    "client closed the connection before the answer to {} {} was written: {}",
                    request.getMethod(),
                    request.getRequestURI(),
                    NestedExceptionUtils.getMostSpecificCause(e).toString());
            return null;
        }
        if (e instanceof ErrorResponse error) {
            HttpStatusCode status = error.getStatusCode();
            if (status.value() == 400) {
                return coded(400, ErrorCode.MALFORMED, "invalid request");
            }
            if (status.is5xxServerError()) {
                log.error("request failed with {}", status.value(), e);
            }
            if (status.value() == 406) {
                // the client accepts no JSON: no converter may write the problem, so it is written here
                writeNotAcceptable(response);
                return null;
            }
            ResponseEntity<ProblemDetail> problem =
                    forStatus(status.value(), error.getBody().getDetail());
            return ResponseEntity.status(status)
                    .headers(error.getHeaders())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(problem.getBody());
        }
        if (e instanceof BindException || e instanceof ConstraintViolationException) {
            return coded(400, ErrorCode.MALFORMED, "invalid request");
        }
        log.error("internal error", e);
        return forStatus(500, "internal error");
    }

    /**
     * A problem for an HTTP-level failure, with the code of its status: {@code NOT_FOUND}, {@code
     * METHOD_NOT_ALLOWED}, {@code NOT_ACCEPTABLE}, {@code UNSUPPORTED_MEDIA_TYPE}, {@code
     * LIMIT_EXCEEDED} (413, 431), {@code MALFORMED} (other 4xx), {@code INTERNAL_ERROR} (5xx).
     */
    public static ResponseEntity<ProblemDetail> forStatus(int status, String detail) {
        String code = httpCode(status);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(status), detail);
        HttpStatus known = HttpStatus.resolve(status);
        problem.setTitle(known != null ? known.getReasonPhrase() : code);
        problem.setType(URI.create(TYPE_PREFIX + code.toLowerCase(Locale.ROOT)));
        problem.setProperty("code", code);
        return entity(problem);
    }

    /** The code of an HTTP-level failure (see {@link #forStatus}). */
    public static String httpCode(int status) {
        return switch (status) {
            case 404 -> ErrorCode.NOT_FOUND.name();
            case 405 -> "METHOD_NOT_ALLOWED";
            case 406 -> "NOT_ACCEPTABLE";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            case 413, 431 -> ErrorCode.LIMIT_EXCEEDED.name();
            case 401 -> "TOKEN_REQUIRED";
            case 403 -> CALLER_NOT_ALLOWED;
            case 503 -> "OVERLOADED";
            case 504 -> "DEADLINE_EXCEEDED";
            default -> status >= 500 ? "INTERNAL_ERROR" : ErrorCode.MALFORMED.name();
        };
    }

    /** A 406: the body is written by hand, since no converter may write what the client refuses. */
    private static void writeNotAcceptable(jakarta.servlet.http.HttpServletResponse response)
            throws java.io.IOException {
        response.setStatus(406);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream()
                .write(("{\"type\":\"" + TYPE_PREFIX + "not_acceptable\",\"title\":\"Not Acceptable\","
                                + "\"status\":406,\"code\":\"NOT_ACCEPTABLE\"}")
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        response.flushBuffer();
    }

    /**
     * Whether a failure says the client closed the connection before the answer was written: Spring's
     * {@code AsyncRequestNotUsableException}, Tomcat's {@code ClientAbortException}, or an I/O failure
     * whose cause chain says the peer reset or closed it (Spring's {@link DisconnectedClientHelper}:
     * the types first, then "broken pipe" / "connection reset by peer"; a failure of an outbound
     * client call, a {@code RestClientException}, is never one).
     */
    static boolean clientGone(Throwable failure) {
        return DisconnectedClientHelper.isClientDisconnectedException(failure);
    }

    /** The HTTP status of an {@link AssertionException} (see the class comment). */
    public static int status(AssertionException e) {
        if (e instanceof InvalidAccessTokenException) {
            return 401;
        }
        ErrorCode code = e.code();
        if (code == ErrorCode.LIMIT_EXCEEDED) {
            String message = e.getMessage();
            return message != null && message.contains("encoded size") ? 413 : 400;
        }
        if (code == ErrorCode.UPSTREAM_UNAVAILABLE) {
            for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
                if (unreachable(t)) {
                    return 503;
                }
                if (t instanceof java.net.SocketTimeoutException || t instanceof java.net.http.HttpTimeoutException) {
                    return 504;
                }
            }
            return 502;
        }
        return code.httpStatus();
    }

    /**
     * Whether a cause says the peer gave no answer at all: refused ({@link ConnectException}), reset
     * or broken ({@link SocketException}), closed before answering ({@link NoHttpResponseException}),
     * {@link UnreachableException} (a downstream's own 503, a database), or {@link X509SourceException}
     * (the Workload API gave no SVID in time: a fresh X.509 source per request, docs/design.md).
     */
    private static boolean unreachable(Throwable t) {
        return t instanceof SocketException
                || t instanceof NoHttpResponseException
                || t instanceof UnreachableException
                || t instanceof X509SourceException;
    }

    private static ResponseEntity<ProblemDetail> coded(int status, ErrorCode code, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(status), detail);
        problem.setTitle(code.name());
        problem.setType(URI.create(TYPE_PREFIX + code.name().toLowerCase(Locale.ROOT)));
        problem.setProperty("code", code.name());
        return entity(problem);
    }

    private static ResponseEntity<ProblemDetail> entity(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
