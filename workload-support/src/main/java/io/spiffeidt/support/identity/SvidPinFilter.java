package io.spiffeidt.support.identity;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Opens an {@link SvidPin} scope for the time of each request: what the request signs and what its
 * outbound calls present come from one SVID.
 *
 * <p>Thread safety: stateless.
 */
public final class SvidPinFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try (SvidPin.Scope scope = SvidPin.open()) {
            chain.doFilter(request, response);
        }
    }
}
