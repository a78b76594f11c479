package io.spiffeidt.idp.token;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A successful token response (RFC 6749 section 5.1) from {@code POST /dev/token}.
 *
 * <p>Thread safety: immutable.
 *
 * @param accessToken the RS256 JWT access token
 * @param tokenType always {@code Bearer}
 * @param expiresIn lifetime of the access token in seconds
 * @param scope the granted scopes, space-separated
 * @param idToken the OpenID Connect ID token, or {@code null} (then omitted) when the client has
 *     no {@code openid} scope
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DevTokenResponse(
        @JsonProperty("access_token") String accessToken,
        @JsonProperty("token_type") String tokenType,
        @JsonProperty("expires_in") long expiresIn,
        @JsonProperty("scope") String scope,
        @JsonProperty("id_token") String idToken) {

    /** Never shows the tokens. */
    @Override
    public String toString() {
        return "DevTokenResponse[tokenType=" + tokenType + ", expiresIn=" + expiresIn + ", scope=" + scope + "]";
    }
}
