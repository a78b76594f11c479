package io.spiffeidt.idp.token;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

/**
 * Shapes access tokens as the workloads expect them (RFC 9068): header {@code typ} {@code at+jwt},
 * {@code aud} is the
 * configured audience instead of the client id, {@code client_id} names the client, and
 * {@code scope} is one space-separated string. Spring Authorization Server supplies {@code iss},
 * {@code sub} (the username), {@code iat}, {@code nbf}, {@code exp}, {@code jti} and the
 * {@code kid} header. ID tokens are left as they are.
 *
 * <p>Thread safety: immutable.
 */
public final class IdpTokenCustomizer implements OAuth2TokenCustomizer<JwtEncodingContext> {

    private final String audience;

    /**
     * Creates the customizer.
     *
     * @param audience the {@code aud} of every access token
     */
    public IdpTokenCustomizer(String audience) {
        this.audience = audience;
    }

    @Override
    public void customize(JwtEncodingContext context) {
        if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
            return;
        }
        // RFC 9068 section 2.1: "typ" at+jwt tells access tokens apart from ID tokens of the same issuer
        context.getJwsHeader().type("at+jwt");
        var claims = context.getClaims();
        claims.audience(List.of(audience));
        claims.claim(
                OAuth2ParameterNames.CLIENT_ID, context.getRegisteredClient().getClientId());
        Set<String> scopes = context.getAuthorizedScopes();
        if (scopes.isEmpty()) {
            claims.claims(all -> all.remove(OAuth2ParameterNames.SCOPE));
        } else {
            claims.claim(OAuth2ParameterNames.SCOPE, String.join(" ", new TreeSet<>(scopes)));
        }
    }
}
