package io.spiffeidt.support.problem;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's error report as a problem detail instead of its HTML page: what Tomcat answers itself,
 * before any servlet runs (a request header over the limit, a request line it cannot parse).
 *
 * <p>Thread safety: stateless.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String code = tooLarge(throwable) ? "LIMIT_EXCEEDED" : ProblemDetailsAdvice.httpCode(status);
        String json = "{\"type\":\"" + ProblemDetailsAdvice.TYPE_PREFIX + code.toLowerCase(java.util.Locale.ROOT)
                + "\",\"title\":\"" + code + "\",\"status\":" + status + ",\"code\":\"" + code + "\"}";
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
