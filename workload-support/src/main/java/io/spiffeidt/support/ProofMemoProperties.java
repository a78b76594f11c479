package io.spiffeidt.support;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The verifiers' memo of verified OAuth proofs ({@code spiffeidt.proof-memo.*}; docs/operations.md
 * "Verified proofs are remembered"). Always empty under the {@code thesis} pooling profile.
 *
 * @param enabled false: every use verifies the proof again
 * @param maxEntries the most proofs remembered (least recently used go first)
 * @param ttl how long an entry is used after its verification
 */
@ConfigurationProperties("spiffeidt.proof-memo")
public record ProofMemoProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("10000") int maxEntries,
        @DefaultValue("5m") Duration ttl) {

    public ProofMemoProperties {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("spiffeidt.proof-memo.max-entries must not be negative");
        }
        ttl = ttl == null ? Duration.ofMinutes(5) : ttl;
    }
}
