package io.spiffeidt.core.wimse;

import io.spiffeidt.core.SpiffeId;
import java.time.Instant;
import java.util.Objects;

/**
 * A request whose WIT and WPT verified (docs/formats/wimse.md "Verifying a WPT"): who sent it, and
 * until when each token holds.
 *
 * <p>Thread safety: immutable.
 *
 * @param wit the verified WIT
 * @param wptJti the WPT's {@code jti}, now spent
 * @param wptExpiresAt the WPT's {@code exp}
 * @param audience the target URI the WPT is bound to
 * @param method the HTTP method the WPT is bound to
 * @param txnTokenBound whether the WPT bound a Txn-Token ({@code tth})
 */
public record VerifiedWimse(
        Wit wit, String wptJti, Instant wptExpiresAt, String audience, String method, boolean txnTokenBound) {

    /** Requires every part. */
    public VerifiedWimse {
        Objects.requireNonNull(wit, "wit");
        Objects.requireNonNull(wptJti, "wptJti");
        Objects.requireNonNull(wptExpiresAt, "wptExpiresAt");
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(method, "method");
    }

    /** The sending workload (the WIT's {@code sub}). */
    public SpiffeId workload() {
        return wit.subject();
    }
}
