package io.spiffeidt.idp.config;

import java.net.URI;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.stereotype.Component;

/**
 * The issuer identifier of this IdP: the configured {@code spiffeidt.idp.issuer}, or else
 * {@code http://127.0.0.1:<port>} with the port the web server actually listens on. Discovery,
 * access tokens, ID tokens and {@code /dev/token} all take it from here (the authorization server
 * endpoints through {@link LocalIssuerFilter}), so they always agree, also with
 * {@code server.port=0}. The devstack launcher can read it from the started context.
 *
 * <p>Thread safety: immutable; safe to call from any thread once the server has started.
 */
@Component
public class IdpIssuer {

    private final URI configured;

    private final ApplicationContext context;

    IdpIssuer(IdpProperties properties, ApplicationContext context) {
        this.configured = properties.issuer();
        this.context = context;
    }

    /**
     * Whether the issuer comes from configuration rather than from the local port.
     *
     * @return {@code true} when {@code spiffeidt.idp.issuer} is set
     */
    public boolean isConfigured() {
        return configured != null;
    }

    /**
     * The issuer identifier.
     *
     * @return the configured issuer, or {@code http://127.0.0.1:<actual port>}
     * @throws IllegalStateException when no issuer is configured and the web server is not
     *     listening yet
     */
    public URI uri() {
        if (configured != null) {
            return configured;
        }
        WebServer webServer = context instanceof WebServerApplicationContext web ? web.getWebServer() : null;
        int port = webServer == null ? -1 : webServer.getPort();
        if (port <= 0) {
            throw new IllegalStateException("the IdP web server is not listening yet; the issuer is not known");
        }
        return URI.create("http://127.0.0.1:" + port);
    }
}
