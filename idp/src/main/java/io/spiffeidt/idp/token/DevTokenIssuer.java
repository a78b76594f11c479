package io.spiffeidt.idp.token;

import io.spiffeidt.idp.config.IdpIssuer;
import io.spiffeidt.idp.config.IdpProperties;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.oidc.OidcScopes;
import org.springframework.security.oauth2.core.oidc.endpoint.OidcParameterNames;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContext;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DefaultOAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.JwtGenerator;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.stereotype.Component;

/**
 * Issues tokens for a test user from a username and password, without a browser: the
 * {@code POST /dev/token} shortcut for scripts and load tests. The tokens come from the same
 * encoder, key, customizer and issuer as those of the authorization-code flow, issued to the
 * client {@code spiffeidt.idp.dev-token-client} with all its scopes. They are self-contained
 * JWTs and are not recorded as authorizations (no introspection or revocation at the IdP).
 *
 * <p>Thread safety: immutable collaborators; safe for concurrent use.
 */
@Component
public class DevTokenIssuer {

    /** The grant type reported to the token customizer for tokens issued here. */
    public static final AuthorizationGrantType DEV_PASSWORD =
            new AuthorizationGrantType("urn:spiffeidt:idp:dev-password");

    private static final OAuth2TokenType ID_TOKEN = new OAuth2TokenType(OidcParameterNames.ID_TOKEN);

    private final AuthenticationManager authenticationManager;

    private final RegisteredClientRepository clients;

    private final String clientId;

    private final JwtGenerator generator;

    private final AuthorizationServerSettings settings;

    private final IdpIssuer issuer;

    DevTokenIssuer(
            AuthenticationManager authenticationManager,
            RegisteredClientRepository clients,
            JwtEncoder encoder,
            OAuth2TokenCustomizer<JwtEncodingContext> customizer,
            AuthorizationServerSettings settings,
            IdpIssuer issuer,
            IdpProperties properties) {
        this.authenticationManager = authenticationManager;
        this.clients = clients;
        this.clientId = properties.devTokenClient();
        this.generator = new JwtGenerator(encoder);
        this.generator.setJwtCustomizer(customizer);
        this.settings = settings;
        this.issuer = issuer;
    }

    /**
     * Authenticates a test user and issues an access token, plus an ID token when the client has
     * the {@code openid} scope.
     *
     * @param username the test user's name
     * @param password the password
     * @return the token response
     * @throws AuthenticationException (a {@code BadCredentialsException}) for an unknown user or a
     *     wrong password, without telling which
     */
    public DevTokenResponse issue(String username, String password) {
        Authentication user = authenticationManager.authenticate(
                UsernamePasswordAuthenticationToken.unauthenticated(username, password));
        RegisteredClient client = clients.findByClientId(clientId);
        if (client == null) {
            throw new IllegalStateException("the dev-token client is not registered");
        }
        Set<String> scopes = new TreeSet<>(client.getScopes());
        AuthorizationServerContext context = new FixedIssuerContext(issuer.uri().toString(), settings);
        Jwt accessToken = generate(client, user, scopes, context, OAuth2TokenType.ACCESS_TOKEN);
        String idToken = scopes.contains(OidcScopes.OPENID)
                ? generate(client, user, scopes, context, ID_TOKEN).getTokenValue()
                : null;
        long expiresIn = Duration.between(accessToken.getIssuedAt(), accessToken.getExpiresAt())
                .toSeconds();
        return new DevTokenResponse(
                accessToken.getTokenValue(), "Bearer", expiresIn, String.join(" ", scopes), idToken);
    }

    private Jwt generate(
            RegisteredClient client,
            Authentication user,
            Set<String> scopes,
            AuthorizationServerContext context,
            OAuth2TokenType type) {
        Jwt jwt = generator.generate(DefaultOAuth2TokenContext.builder()
                .registeredClient(client)
                .principal(user)
                .authorizationServerContext(context)
                .authorizedScopes(scopes)
                .tokenType(type)
                .authorizationGrantType(DEV_PASSWORD)
                .build());
        if (jwt == null) {
            throw new IllegalStateException("the token generator issued no " + type.getValue());
        }
        return jwt;
    }

    private record FixedIssuerContext(String issuer, AuthorizationServerSettings settings)
            implements AuthorizationServerContext {

        @Override
        public String getIssuer() {
            return issuer;
        }

        @Override
        public AuthorizationServerSettings getAuthorizationServerSettings() {
            return settings;
        }
    }
}
