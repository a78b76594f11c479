package io.spiffeidt.idp.config;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Presents each authorization-server request as addressed to the issuer's origin.
 *
 * <p>Why: without a configured issuer, Spring Authorization Server derives the issuer from the
 * request URL (scheme, Host header, port). With a random port the issuer cannot be configured
 * before start-up, and a request-derived issuer would change with the Host header a client uses.
 * Rewriting scheme, host and port to those of {@link IdpIssuer#uri()} makes discovery and every
 * token carry the one issuer, {@code http://127.0.0.1:<actual port>}. Only installed in the
 * authorization-server filter chain, and only when no issuer is configured.
 */
final class LocalIssuerFilter extends OncePerRequestFilter {

    private final IdpIssuer issuer;

    LocalIssuerFilter(IdpIssuer issuer) {
        this.issuer = issuer;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new IssuerOriginRequest(request, issuer.uri()), response);
    }

    private static final class IssuerOriginRequest extends HttpServletRequestWrapper {

        private final String scheme;

        private final String host;

        private final int port;

        IssuerOriginRequest(HttpServletRequest request, URI origin) {
            super(request);
            this.scheme = origin.getScheme();
            this.host = origin.getHost();
            this.port = origin.getPort() > 0 ? origin.getPort() : ("https".equals(scheme) ? 443 : 80);
        }

        @Override
        public String getScheme() {
            return scheme;
        }

        @Override
        public boolean isSecure() {
            return "https".equals(scheme);
        }

        @Override
        public String getServerName() {
            return host;
        }

        @Override
        public int getServerPort() {
            return port;
        }

        @Override
        public StringBuffer getRequestURL() {
            return new StringBuffer(scheme)
                    .append("://")
                    .append(host)
                    .append(':')
                    .append(port)
                    .append(getRequestURI());
        }
    }
}
