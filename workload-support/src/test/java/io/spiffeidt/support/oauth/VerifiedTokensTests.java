package io.spiffeidt.support.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void getWhenRememberedThenSameTokenUntilTtlThenForgotten() throws Exception {
        VerifiedTokens memo = new VerifiedTokens(10, Duration.ofSeconds(60));
        VerifiedOAuthToken t = token("a", T0.plusSeconds(3600));
        memo.remember("text-a", t, T0);

        assertThat(memo.get("text-a", T0.plusSeconds(59))).isSameAs(t);
        assertThat(memo.get("text-b", T0)).isNull();
        assertThat(memo.get("text-a", T0.plusSeconds(60))).isNull();
        assertThat(memo.size()).isZero();
    }

    @Test
    void getWhenTokenExpiresBeforeTtlThenForgottenAtExp() throws Exception {
        VerifiedTokens memo = new VerifiedTokens(10, Duration.ofSeconds(60));
        memo.remember("text", token("a", T0.plusSeconds(10)), T0);

        assertThat(memo.get("text", T0.plusSeconds(9))).isNotNull();
        assertThat(memo.get("text", T0.plusSeconds(10))).isNull();
    }

    @Test
    void rememberWhenAlreadyExpiredThenNothingKept() throws Exception {
        VerifiedTokens memo = new VerifiedTokens(10, Duration.ofSeconds(60));
        memo.remember("text", token("a", T0.minusSeconds(5)), T0); // accepted within the skew

        assertThat(memo.size()).isZero();
        assertThat(memo.get("text", T0)).isNull();
    }

    @Test
    void rememberWhenFullThenLeastRecentlyUsedGoes() throws Exception {
        VerifiedTokens memo = new VerifiedTokens(2, Duration.ofSeconds(60));
        memo.remember("a", token("a", T0.plusSeconds(3600)), T0);
        memo.remember("b", token("b", T0.plusSeconds(3600)), T0);
        memo.get("a", T0);
        memo.remember("c", token("c", T0.plusSeconds(3600)), T0);

        assertThat(memo.size()).isEqualTo(2);
        assertThat(memo.get("a", T0)).isNotNull();
        assertThat(memo.get("b", T0)).isNull();
        assertThat(memo.get("c", T0)).isNotNull();
    }

    @Test
    void getWhenCapacityOrTtlZeroThenRemembersNothing() throws Exception {
        for (VerifiedTokens memo : new VerifiedTokens[] {
            new VerifiedTokens(0, Duration.ofSeconds(60)), new VerifiedTokens(5, Duration.ZERO)
        }) {
            memo.remember("a", token("a", T0.plusSeconds(3600)), T0);
            assertThat(memo.enabled()).isFalse();
            assertThat(memo.get("a", T0)).isNull();
        }
        assertThatThrownBy(() -> new VerifiedTokens(-1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
