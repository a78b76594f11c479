package io.spiffeidt.targetwl.account;

import java.time.Duration;
import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Account settings of the target workload, under {@code spiffeidt.account} (docs/formats/common.md
 * "Idempotent deposits").
 *
 * @param idempotencyRetention how long a deposit's {@code Idempotency-Key} is remembered: a retry with
 *     the same key within this time answers the first answer again, a later one is a new deposit
 * @param idempotencyPurgeInterval least time between two deletions of expired idempotency keys (made
 *     by a deposit that carries a key)
 */
@ConfigurationProperties("spiffeidt.account")
public record AccountProperties(
        @DefaultValue("24h") Duration idempotencyRetention, @DefaultValue("60s") Duration idempotencyPurgeInterval) {

    /** Checks that both durations are positive. */
    public AccountProperties {
        Objects.requireNonNull(idempotencyRetention, "idempotencyRetention");
        Objects.requireNonNull(idempotencyPurgeInterval, "idempotencyPurgeInterval");
        if (idempotencyRetention.isNegative() || idempotencyRetention.isZero()) {
            throw new IllegalArgumentException("spiffeidt.account.idempotency-retention must be positive");
        }
        if (idempotencyPurgeInterval.isNegative() || idempotencyPurgeInterval.isZero()) {
            throw new IllegalArgumentException("spiffeidt.account.idempotency-purge-interval must be positive");
        }
    }

    /** The defaults: keys kept 24 hours, expired ones deleted at most once a minute. */
    public static AccountProperties defaults() {
        return new AccountProperties(Duration.ofHours(24), Duration.ofSeconds(60));
    }
}
