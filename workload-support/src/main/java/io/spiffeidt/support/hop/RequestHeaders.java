package io.spiffeidt.support.hop;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.ServletServerHttpRequest;

/**
 * The headers a tier's controller hands to {@link Hop#receive}: a view that reads a header when the
 * hop asks for it. A mode without a document reads one, the others none (an {@code HttpHeaders}
 * parameter copied every header into a case-insensitive map on every request).
 */
public final class RequestHeaders {

    private RequestHeaders() {}

    /** The headers of {@code request}, read on demand. */
    public static HttpHeaders of(HttpServletRequest request) {
        return new ServletServerHttpRequest(request).getHeaders();
    }
}
