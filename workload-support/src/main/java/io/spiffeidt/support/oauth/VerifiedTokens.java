package io.spiffeidt.support.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A bounded memo of access tokens that verified, so that a workload verifies the token a user sends
 * with every request once and not on every request (issue 13: no request paying for work already
 * done).
 *
 * <p>Sound because the verification of a token is a pure function of its exact text, the allow-list
 * (fixed for the process), the issuer's key (cached by the JWKS source for {@code
 * spiffeidt.oauth.cache-ttl} anyway) and the time. The key is the exact token text, so another
 * token, however similar, is verified in full. An entry is used until the earliest of its {@code
 * ttl} after the verification, the JWKS cache's TTL after it (a key the issuer stops publishing is
 * not trusted longer than the JWKS cache already trusts it), and the token's own {@code exp}
 * (without the skew: in the skew window the full verification decides). {@code nbf} and {@code iat}
 * were in the past at verification and stay there. Only successes are kept; failures are verified
 * again every time, so their error codes are exactly the full verification's.
 *
 * <p>The memo holds tokens in memory for at most {@code ttl} (they are bearer secrets; they are never
 * logged or returned from here).
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedTokens {

    private final int capacity;
    private final Duration ttl;
    private final Map<String, Entry> entries;

    private record Entry(VerifiedOAuthToken token, Instant until) {}

    /**
     * @param capacity entries kept at most (0 = remember nothing)
     * @param ttl how long an entry is used after its verification
     */
    VerifiedTokens(int capacity, Duration ttl) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > VerifiedTokens.this.capacity;
            }
        };
    }

    /** Whether this memo remembers anything. */
    boolean enabled() {
        return capacity > 0 && !ttl.isZero();
    }

    /** The verified token for exactly {@code text}, or {@code null} (unknown, or its time is up). */
    VerifiedOAuthToken get(String text, Instant now) {
        if (!enabled()) {
            return null;
        }
        synchronized (entries) {
            Entry e = entries.get(text);
            if (e == null) {
                return null;
            }
            if (!now.isBefore(e.until())) {
                entries.remove(text);
                return null;
            }
            return e.token();
        }
    }

    /** Remembers that {@code text} verified as {@code token} at {@code now}. */
    void remember(String text, VerifiedOAuthToken token, Instant now) {
        if (!enabled()) {
            return;
        }
        Instant until = now.plus(ttl);
        if (token.expiresAt().isBefore(until)) {
            until = token.expiresAt();
        }
        if (!now.isBefore(until)) {
            return;
        }
        synchronized (entries) {
            entries.put(text, new Entry(token, until));
        }
    }

    /** Entries held now (for tests). */
    int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
