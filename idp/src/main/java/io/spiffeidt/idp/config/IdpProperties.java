package io.spiffeidt.idp.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the development IdP, prefix {@code spiffeidt.idp}.
 *
 * <p>Thread safety: immutable.
 *
 * @param users number of test users {@code user0001}...
 * @param password the password of every test user. A value that starts with a Spring Security
 *     encoding id in braces (bcrypt, ...) is taken as already encoded, any other value as plain text
 *     (noop: the password is public, and {@code /dev/token} must stay cheap under load)
 * @param issuer the issuer identifier; unset (the default) means {@code http://127.0.0.1:<port>}
 *     with the port the server actually listens on, known once it has started (so
 *     {@code server.port=0} works). Set it when clients reach the IdP by another name (a container
 *     name, a Kubernetes Service). Absolute {@code http}/{@code https} URI without path, query or
 *     fragment, because the endpoints are served at the root
 * @param audience the {@code aud} of access tokens
 * @param accessTokenTtl lifetime of access tokens
 * @param signingKey a PEM file holding an unencrypted PKCS#8 RSA private key of at least 2048
 *     bits; unset (the default) means an RSA-2048 key generated at start-up
 * @param clients the OAuth clients by client id, each with its {@code redirect-uris}, {@code scopes}
 *     and {@code post-logout-redirect-uris}; unset: one public client {@code subject-wl} with the
 *     redirect and post-logout URIs of subject-wl's page on 127.0.0.1:8080
 * @param devTokenClient the client id that tokens from {@code POST /dev/token} are issued to; must
 *     be one of {@code clients}
 */
@Validated
@ConfigurationProperties("spiffeidt.idp")
public record IdpProperties(
        @DefaultValue("100") @Min(1) @Max(1_000_000) int users,
        @DefaultValue("password") @NotBlank String password,
        URI issuer,
        @DefaultValue("spiffeidt") @NotBlank String audience,
        @DefaultValue("3600s") @NotNull @DurationMin(seconds = 1) Duration accessTokenTtl,
        Path signingKey,
        Map<String, @Valid @NotNull Client> clients,
        @DefaultValue(DEFAULT_CLIENT_ID) @NotBlank String devTokenClient) {

    /** The client id of the default client, the subject workload. */
    public static final String DEFAULT_CLIENT_ID = "subject-wl";

    /** Applies the default client and checks what bean validation cannot express. */
    public IdpProperties {
        if (clients == null || clients.isEmpty()) {
            clients = Map.of(DEFAULT_CLIENT_ID, Client.defaults());
        } else {
            clients = Map.copyOf(new LinkedHashMap<>(clients));
        }
        if (issuer != null) {
            checkIssuer(issuer);
        }
        if (devTokenClient != null && !clients.containsKey(devTokenClient)) {
            throw new IllegalArgumentException(
                    "spiffeidt.idp.dev-token-client '" + devTokenClient + "' is not one of spiffeidt.idp.clients");
        }
    }

    private static void checkIssuer(URI issuer) {
        String scheme = issuer.getScheme();
        boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
        String path = issuer.getRawPath();
        if (!web
                || issuer.getHost() == null
                || issuer.getRawUserInfo() != null
                || (path != null && !path.isEmpty())
                || issuer.getRawQuery() != null
                || issuer.getRawFragment() != null) {
            throw new IllegalArgumentException(
                    "spiffeidt.idp.issuer must be an http(s) URI with a host and without path, query or fragment");
        }
    }

    /**
     * One OAuth client: public (no secret), authorization-code grant with PKCE required, no consent
     * page.
     *
     * <p>Thread safety: immutable.
     *
     * @param redirectUris allowed redirect URIs; default
     *     {@code http://127.0.0.1:8080/login/oauth2/code/idp}
     * @param scopes scopes the client may request; default {@code openid}, {@code profile}
     * @param postLogoutRedirectUris allowed OIDC post-logout redirect URIs; default
     *     {@code http://127.0.0.1:8080/?logout} (subject-wl's page)
     */
    public record Client(
            @DefaultValue(DEFAULT_REDIRECT_URI) @NotEmpty List<@NotNull URI> redirectUris,
            @DefaultValue({"openid", "profile"}) @NotEmpty Set<@NotBlank String> scopes,
            @DefaultValue(DEFAULT_POST_LOGOUT_REDIRECT_URI) List<@NotNull URI> postLogoutRedirectUris) {

        /** The default redirect URI: Spring Security's OAuth2 login callback of subject-wl. */
        public static final String DEFAULT_REDIRECT_URI = "http://127.0.0.1:8080/login/oauth2/code/idp";

        /** The default post-logout redirect URI: subject-wl's page, telling it the user logged out. */
        public static final String DEFAULT_POST_LOGOUT_REDIRECT_URI = "http://127.0.0.1:8080/?logout";

        /** Copies the collections; a missing post-logout list becomes empty. */
        public Client {
            redirectUris = redirectUris == null ? List.of() : List.copyOf(redirectUris);
            scopes = scopes == null ? Set.of() : Set.copyOf(scopes);
            postLogoutRedirectUris = postLogoutRedirectUris == null ? List.of() : List.copyOf(postLogoutRedirectUris);
        }

        /**
         * The default client settings.
         *
         * @return redirect URI {@link #DEFAULT_REDIRECT_URI}, scopes {@code openid profile},
         *     post-logout redirect URI {@link #DEFAULT_POST_LOGOUT_REDIRECT_URI}
         */
        public static Client defaults() {
            return new Client(
                    List.of(URI.create(DEFAULT_REDIRECT_URI)),
                    Set.of("openid", "profile"),
                    List.of(URI.create(DEFAULT_POST_LOGOUT_REDIRECT_URI)));
        }
    }
}
