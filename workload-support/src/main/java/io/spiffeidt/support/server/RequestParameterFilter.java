package io.spiffeidt.support.server;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request whose parameters Tomcat cannot decode (a broken {@code %} escape, bytes that
 * are not UTF-8, in the query string or a form body) with 400 {@code MALFORMED}, before a security
 * filter or a controller reads one. Tomcat throws when the parameters are first read, and its
 * exception quotes the parameter's name and value (a subject token, a password), which the container
 * would log with a stack trace. Runs after the body limit, and parses only a request that has a query
 * string or a form body: a JSON request costs nothing. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class RequestParameterFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(RequestParameterFilter.class);

    private static final byte[] PROBLEM = ("{\"type\":\"urn:spiffeidt:problem:malformed\",\"title\":\"MALFORMED\","
                    + "\"status\":400,\"detail\":\"a request parameter cannot be decoded\",\"code\":\"MALFORMED\"}")
            .getBytes(StandardCharsets.UTF_8);

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getQueryString() != null || isForm(request.getContentType())) {
            try {
                request.getParameterMap();
            } catch (InvalidParameterException e) {
                log.info("request refused: a request parameter cannot be decoded (MALFORMED)");
                response.setStatus(400);
                response.setContentType("application/problem+json");
                response.setContentLength(PROBLEM.length);
                response.getOutputStream().write(PROBLEM);
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private static boolean isForm(String contentType) {
        return contentType != null
                && contentType
                        .toLowerCase(java.util.Locale.ROOT)
                        .startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE);
    }
}
