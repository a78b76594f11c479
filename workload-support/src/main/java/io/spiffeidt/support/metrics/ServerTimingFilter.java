package io.spiffeidt.support.metrics;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Binds a fresh {@link ServerTiming} and {@link WireBytes} to the thread for the time of each
 * request; {@link ServerTimingAdvice} writes them into the response before the body.
 */
public class ServerTimingFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ServerTiming.begin();
        WireBytes.begin();
        try {
            chain.doFilter(request, response);
        } finally {
            ServerTiming.end();
            WireBytes.end();
        }
    }
}
