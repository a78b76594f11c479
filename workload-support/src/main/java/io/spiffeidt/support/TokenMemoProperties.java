package io.spiffeidt.support;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The memo of verified OAuth access tokens ({@code spiffeidt.token-memo.*}; docs/operations.md
 * "Verified access tokens are remembered"). Always empty under the {@code thesis} pooling profile and
 * when the JWKS is fetched on every call ({@code spiffeidt.oauth.jwks-cache=none}).
 *
 * @param enabled false: every request verifies its token in full
 * @param maxEntries the most tokens remembered (least recently used go first)
 * @param ttl how long an entry is used after its verification (also never longer than the token's
 *     {@code exp} and the JWKS cache's {@code spiffeidt.oauth.cache-ttl})
 */
@ConfigurationProperties("spiffeidt.token-memo")
public record TokenMemoProperties(
        @DefaultValue("true") boolean enabled, @DefaultValue("4096") int maxEntries, @DefaultValue("1m") Duration ttl) {

    public TokenMemoProperties {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("spiffeidt.token-memo.max-entries must not be negative");
        }
        ttl = ttl == null ? Duration.ofMinutes(1) : ttl;
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("spiffeidt.token-memo.ttl must not be negative");
        }
    }
}
