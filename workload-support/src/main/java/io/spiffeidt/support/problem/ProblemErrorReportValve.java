package io.spiffeidt.support.problem;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.io.IOException;
import java.io.Writer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.http.HttpHeaders;

/**
 * Tomcat's error report as a problem detail instead of its HTML page: what Tomcat answers itself,
 * before any servlet runs (a request header over the limit, a request line it cannot parse, a header
 * line with a control byte: 400, {@code IDEMPOTENCY_KEY_INVALID} for the {@code Idempotency-Key} as
 * {@code RequestHeaderFilter} answers it, else {@code MALFORMED}, with the header's name).
 *
 * <p>Thread safety: stateless.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    /** "[name:" in Tomcat's message of a refused header line, the name an RFC 9110 token of at most 64. */
    private static final Pattern HEADER_LINE = Pattern.compile("\\[([!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}):");

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String header = status == 400 ? refusedHeader(throwable) : null;
        String code = tooLarge(throwable)
                ? "LIMIT_EXCEEDED"
                : IdempotencyKey.HEADER.equalsIgnoreCase(header)
                        ? ErrorCode.IDEMPOTENCY_KEY_INVALID.name()
                        : ProblemDetailsAdvice.httpCode(status);
        String json = "{\"type\":\"" + ProblemDetailsAdvice.TYPE_PREFIX + code.toLowerCase(java.util.Locale.ROOT)
                + "\",\"title\":\"" + code + "\",\"status\":" + status + ",\"code\":\"" + code + "\""
                + (header == null ? "" : ",\"header\":\"" + header + "\"") + "}";
        if (HttpHeaders.AUTHORIZATION.equalsIgnoreCase(header)) {
            // RFC 6750 section 3.1: a malformed request
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_request\"");
        }
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(json);
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the connection is gone: nothing left to tell
        }
    }

    /**
     * The name of the header line Tomcat refused (a control character in its value), read from its
     * message ("The HTTP header line [name:value] does not conform ..."): a name of token characters
     * only, never the value; null when the message names none.
     */
    public static String refusedHeader(Throwable t) {
        for (Throwable c = t; c != null && c != c.getCause(); c = c.getCause()) {
            String m = c.getMessage();
            if (m == null) {
                continue;
            }
            Matcher header = HEADER_LINE.matcher(m);
            if (header.find()) {
                return header.group(1);
            }
        }
        return null;
    }

    private static boolean tooLarge(Throwable t) {
        for (Throwable c = t; c != null && c != c.getCause(); c = c.getCause()) {
            String m = c.getMessage();
            if (m != null && m.contains("too large")) {
                return true;
            }
        }
        return false;
    }
}
