package io.spiffeidt.support.oauth;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * OAuth access token verification ({@code spiffeidt.oauth.*}; docs/design.md "OAuth tokens").
 * Defaults are written once, in the {@link DefaultValue} annotations.
 *
 * <p>Thread safety: immutable.
 *
 * @param issuers the issuer allow-list: each its {@code issuer} (the exact {@code iss}), {@code
 *     audience} (required), {@code jwks-uri} (unset: OIDC discovery) and {@code rfc9068} (its tokens
 *     must be typed {@code at+jwt}, default true); unset: no issuer is allowed, so every access token is
 *     refused ({@code UNKNOWN_ISSUER})
 * @param jwksCache how the JWKS is obtained: {@code refresh-ahead} (cached, refreshed ahead of
 *     expiry, outage tolerant) or {@code none} (fetched on every verification, as the original did)
 * @param cacheTtl JWKS cache time to live: a rotated IdP key is picked up within it whatever the rate
 *     limit
 * @param refreshAhead refresh the JWKS this long before the cache expires
 * @param jwksRefetchInterval at most one refetch of a JWKS for an unknown {@code kid} in this
 *     interval; tokens with an unknown {@code kid} beyond it are refused (401) without a fetch
 * @param jwksConnectTimeout connect timeout of every request to an issuer (OIDC discovery and JWKS
 *     fetch)
 * @param jwksReadTimeout read timeout of every request to an issuer (OIDC discovery and JWKS fetch)
 */
@ConfigurationProperties("spiffeidt.oauth")
@Validated
public record OAuthProperties(
        List<@Valid Issuer> issuers,
        @DefaultValue("refresh-ahead") @NotNull JwksCacheMode jwksCache,
        @DefaultValue("5m") @NotNull Duration cacheTtl,
        @DefaultValue("30s") @NotNull Duration refreshAhead,
        @DefaultValue("30s") @NotNull Duration jwksRefetchInterval,
        @DefaultValue("2s") @NotNull Duration jwksConnectTimeout,
        @DefaultValue("10s") @NotNull Duration jwksReadTimeout) {

    /** Copies the issuer list. */
    public OAuthProperties {
        issuers = issuers == null ? List.of() : List.copyOf(issuers);
    }

    /** The defaults with the given issuers and JWKS caching (for tests and tools). */
    public static OAuthProperties of(List<Issuer> issuers, JwksCacheMode jwksCache) {
        OAuthProperties d = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("spiffeidt.oauth", OAuthProperties.class);
        return new OAuthProperties(
                issuers,
                jwksCache,
                d.cacheTtl(),
                d.refreshAhead(),
                d.jwksRefetchInterval(),
                d.jwksConnectTimeout(),
                d.jwksReadTimeout());
    }

    /**
     * One allowed OAuth issuer.
     *
     * @param issuer the exact {@code iss} value
     * @param jwksUri the JWKS URI; when absent, OIDC discovery at {@code
     *     <issuer>/.well-known/openid-configuration}
     * @param audience the {@code aud} every access token of this issuer must carry for us (required:
     *     without it an ID token the issuer gave to any client would do; the dev IdP's is {@code
     *     spiffeidt})
     * @param rfc9068 the issuer types its JWT access tokens {@code at+jwt} (RFC 9068) and every token
     *     must say so; false for an issuer that types them {@code JWT} like its ID tokens (Keycloak by
     *     default), whose ID tokens are then told apart by their claims (docs/own-openid-provider.md)
     */
    public record Issuer(
            @NotBlank String issuer, URI jwksUri, @NotBlank String audience, @DefaultValue("true") boolean rfc9068) {}
}
