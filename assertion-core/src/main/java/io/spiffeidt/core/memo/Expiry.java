package io.spiffeidt.core.memo;

import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;

/**
 * When a remembered value stops being used (docs/design.md "Memos"): one rule per use of a {@link
 * Memo}, chosen from three. Whatever the rule, the memo's {@link MemoSettings#ttl()}, when set, ends
 * an entry that long after it was remembered at the latest.
 *
 * <p>Thread safety: the factories' rules are stateless.
 *
 * @param <V> what is remembered
 */
@FunctionalInterface
public interface Expiry<V> {

    /**
     * The instant from which {@code value}, remembered at {@code now}, is no longer used, or {@code
     * null} when only the memo's TTL ends it.
     */
    Instant until(V value, Instant now);

    /** Only the memo's {@link MemoSettings#ttl()} ends an entry (none: it lives until evicted). */
    static <V> Expiry<V> ttl() {
        return (value, now) -> null;
    }

    /** The value's own expiry (for example a token's {@code exp}), capped by the memo's TTL. */
    static <V> Expiry<V> own(Function<? super V, Instant> expiresAt) {
        Objects.requireNonNull(expiresAt, "expiresAt");
        return (value, now) -> expiresAt.apply(value);
    }

    /**
     * Half of the value's lifetime: used while less than half of {@code expiresAt - issuedAt} has
     * passed (whole seconds, rounded down), so that what is handed on keeps at least half its life.
     */
    static <V> Expiry<V> halfLife(Function<? super V, Instant> issuedAt, Function<? super V, Instant> expiresAt) {
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        return (value, now) -> {
            long iat = issuedAt.apply(value).getEpochSecond();
            long exp = expiresAt.apply(value).getEpochSecond();
            return Instant.ofEpochSecond(iat + (exp - iat) / 2);
        };
    }
}
