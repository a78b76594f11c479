package io.spiffeidt.support.oauth;

/**
 * How {@link OAuthTokenVerifier} obtains the IdP's JWKS (docs/design.md "OAuth tokens").
 *
 * <p>Thread safety: immutable.
 */
public enum JwksCacheMode {
    /** Cached, refreshed ahead of expiry, outage tolerant (nimbus {@code JWKSourceBuilder}). */
    REFRESH_AHEAD,
    /** Fetched on every verification, as the original did (the thesis' "JWKS http fetch"). */
    NONE
}
