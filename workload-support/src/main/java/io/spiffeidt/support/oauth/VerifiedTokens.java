package io.spiffeidt.support.oauth;

import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import java.time.Duration;

/**
 * The memo of access tokens that verified, so that a workload verifies the token a user sends with
 * every request once and not on every request (no request paying for work already done):
 * the {@link Memo} {@value #NAME} with its key rule.
 *
 * <p>Sound because the verification of a token is a pure function of its exact text, the allow-list
 * (fixed for the process), the issuer's key (cached by the JWKS source for {@code
 * spiffeidt.oauth.cache-ttl} anyway) and the time. The key is the exact token text, so another
 * token, however similar, is verified in full. An entry is used until the earliest of the memo's
 * TTL after the verification, the JWKS cache's TTL after it (a key the issuer stops publishing is
 * not trusted longer than the JWKS cache already trusts it), and the token's own {@code exp}
 * (without the skew: in the skew window the full verification decides). {@code nbf} and {@code iat}
 * were in the past at verification and stay there. Only successes are kept; failures are verified
 * again every time, so their error codes are exactly the full verification's.
 *
 * <p>The memo holds tokens in memory for at most its TTL (they are bearer secrets; they are never
 * logged or returned from here).
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedTokens {

    /** The name of this memo in settings and metrics. */
    static final String NAME = "oauth-token";

    private final Memo<String, VerifiedOAuthToken> memo;

    /**
     * The memo {@value #NAME} of {@code memos}, its TTL no longer than {@code keysTrustedFor}; none
     * when the keys are not cached ({@code keysTrustedFor} {@code null}).
     */
    VerifiedTokens(Memos memos, Duration keysTrustedFor) {
        MemoSettings settings = memos.settings(NAME);
        if (keysTrustedFor == null) {
            settings = MemoSettings.OFF;
        } else if (settings.ttl() == null || keysTrustedFor.compareTo(settings.ttl()) < 0) {
            settings = settings.withTtl(keysTrustedFor);
        }
        this.memo = memos.memo(NAME, settings, Expiry.own(VerifiedOAuthToken::expiresAt));
    }

    /** Whether this memo remembers anything. */
    boolean enabled() {
        return memo.remembers();
    }

    /** The verified token for exactly {@code text}, or {@code null} (unknown, or its time is up). */
    VerifiedOAuthToken get(String text) {
        return memo.get(text);
    }

    /** Remembers that {@code text} verified as {@code token}. */
    void remember(String text, VerifiedOAuthToken token) {
        memo.put(text, token);
    }

    /** Entries held now (for tests). */
    int size() {
        return memo.size();
    }
}
