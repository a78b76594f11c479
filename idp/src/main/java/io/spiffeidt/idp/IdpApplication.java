package io.spiffeidt.idp;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The development OpenID Connect provider: Spring Authorization Server with computed test users
 * ({@code user0001}...), RS256 access and ID tokens, the authorization-code flow with PKCE, and
 * {@code POST /dev/token} for scripts and load tests.
 *
 * <p>Its configuration file is {@code idp.yml} ({@code spring.config.name=idp}), so that it can
 * share one JVM with the other applications of the embedded stack; {@link #builder()} sets that
 * name. Component scanning covers {@code io.spiffeidt.idp} only.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class IdpApplication {

    /** The value of {@code spring.config.name} for this application. */
    public static final String CONFIG_NAME = "idp";

    /**
     * A builder for this application with {@code spring.config.name=idp} as a default property
     * (command-line arguments and system properties still override it). The devstack launcher
     * may use it or set the same property itself.
     *
     * @return a new builder; the caller adds properties and runs it
     */
    public static SpringApplicationBuilder builder() {
        return new SpringApplicationBuilder(IdpApplication.class).properties("spring.config.name=" + CONFIG_NAME);
    }

    /**
     * Starts the IdP on {@code server.port} (9000 by default).
     *
     * @param args Spring Boot command-line arguments, e.g. {@code --server.port=0}
     */
    public static void main(String[] args) {
        builder().run(args);
    }
}
