package io.spiffeidt.idp.config;

import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.EventListener;
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

    private static final Logger log = LoggerFactory.getLogger(IdpIssuer.class);

    private final URI configured;

    private final int users;

    private final ApplicationContext context;

    IdpIssuer(IdpProperties properties, ApplicationContext context) {
        this.configured = properties.issuer();
        this.users = properties.users();
        this.context = context;
    }

    @EventListener(ApplicationReadyEvent.class)
    void ready() {
        log.info(
                "Dev IdP ready: issuer {} ({}), test users {}..{}",
                uri(),
                isConfigured() ? "configured" : "local port",
                TestUsers.username(1),
                TestUsers.username(users));
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
