package io.spiffeidt.support.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.memo.MemoEvents;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.testkit.MutableClock;
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The memo of verified access tokens: what it answers, for how long, and how much it keeps. */
class VerifiedTokensTests {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static VerifiedOAuthToken token(String subject, Instant exp) throws Exception {
        RSAPublicKey key = (RSAPublicKey) KeyFactory.getInstance("RSA")
                .generatePublic(new RSAPublicKeySpec(
                        BigInteger.ONE.shiftLeft(2047).add(BigInteger.ONE), BigInteger.valueOf(65537)));
        return new VerifiedOAuthToken("https://idp", subject, exp, "h.p", new byte[] {1}, "k", key, "{}");
    }

    private final MutableClock clock = MutableClock.at(T0);

    private VerifiedTokens memo(int size, Duration ttl, Duration keysTrustedFor) {
        MemoSettings settings = MemoSettings.DEFAULTS.withSize(size).withTtl(ttl);
        return new VerifiedTokens(Memos.of(name -> settings, clock, MemoEvents.NONE), keysTrustedFor);
    }

    private VerifiedTokens memo(int size, Duration ttl) {
        return memo(size, ttl, Duration.ofMinutes(5));
    }

    @Test
    void getWhenRememberedThenSameTokenUntilTtlThenForgotten() throws Exception {
        VerifiedTokens memo = memo(10, Duration.ofSeconds(60));
        VerifiedOAuthToken t = token("a", T0.plusSeconds(3600));
        memo.remember("text-a", t);

        clock.set(T0.plusSeconds(59));
        assertThat(memo.get("text-a")).isSameAs(t);
        assertThat(memo.get("text-b")).isNull();
        clock.set(T0.plusSeconds(60));
        assertThat(memo.get("text-a")).isNull();
        assertThat(memo.size()).isZero();
    }

    @Test
    void getWhenJwksCacheTtlShorterThanTheMemoTtlThenForgottenWithTheKeys() throws Exception {
        VerifiedTokens memo = memo(10, Duration.ofSeconds(60), Duration.ofSeconds(20));
        memo.remember("text", token("a", T0.plusSeconds(3600)));

        clock.set(T0.plusSeconds(19));
        assertThat(memo.get("text")).isNotNull();
        clock.set(T0.plusSeconds(20));
        assertThat(memo.get("text")).isNull();
    }

    @Test
    void getWhenTokenExpiresBeforeTtlThenForgottenAtExp() throws Exception {
        VerifiedTokens memo = memo(10, Duration.ofSeconds(60));
        memo.remember("text", token("a", T0.plusSeconds(10)));

        clock.set(T0.plusSeconds(9));
        assertThat(memo.get("text")).isNotNull();
        clock.set(T0.plusSeconds(10));
        assertThat(memo.get("text")).isNull();
    }

    @Test
    void rememberWhenAlreadyExpiredThenNothingKept() throws Exception {
        VerifiedTokens memo = memo(10, Duration.ofSeconds(60));
        memo.remember("text", token("a", T0.minusSeconds(5))); // accepted within the skew

        assertThat(memo.size()).isZero();
        assertThat(memo.get("text")).isNull();
    }

    @Test
    void rememberWhenFullThenLeastRecentlyUsedGoes() throws Exception {
        VerifiedTokens memo = memo(2, Duration.ofSeconds(60));
        memo.remember("a", token("a", T0.plusSeconds(3600)));
        memo.remember("b", token("b", T0.plusSeconds(3600)));
        memo.get("a");
        memo.remember("c", token("c", T0.plusSeconds(3600)));

        assertThat(memo.size()).isEqualTo(2);
        assertThat(memo.get("a")).isNotNull();
        assertThat(memo.get("b")).isNull();
        assertThat(memo.get("c")).isNotNull();
    }

    @Test
    void getWhenSizeOrTtlZeroOrKeysNotCachedThenRemembersNothing() throws Exception {
        for (VerifiedTokens memo : new VerifiedTokens[] {
            memo(0, Duration.ofSeconds(60)), memo(5, Duration.ZERO), memo(5, Duration.ofSeconds(60), null)
        }) {
            memo.remember("a", token("a", T0.plusSeconds(3600)));
            assertThat(memo.enabled()).isFalse();
            assertThat(memo.get("a")).isNull();
        }
    }
}
