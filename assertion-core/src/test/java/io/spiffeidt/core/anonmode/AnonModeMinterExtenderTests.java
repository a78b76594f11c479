package io.spiffeidt.core.anonmode;

import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.DPA;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.DPR;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.NOW;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.SUBJECT;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.TARGET;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Minting and extension: the claims they write, their lifetimes, the root identifier. */
class AnonModeMinterExtenderTests {

    private static final AnonModeSettings SETTINGS = AnonModeVerifierTests.settingsAt(NOW);

    @Test
    void mintWhenDelegationThenRootClaimsSortedWithFreshKey() {
        NonceSource nonces = NonceSource.secureRandom();
        AnonModeMinter minter = new AnonModeMinter(SETTINGS, nonces);

        MintedAnonMode first = minter.mint(SUBJECT, DPA, DPR);
        MintedAnonMode second = minter.mint(SUBJECT, DPA, DPR);

        Map<String, Object> claims = Json.parseObject(AnonModeForge.payloadJson(first.token(), 0));
        assertThat(claims.keySet()).containsExactly("aud", "dpa", "dpr", "exp", "iat", "iss");
        assertThat(claims.get("aud")).isEqualTo(SUBJECT.toString());
        assertThat(claims.get("iss")).isEqualTo(first.rootKey());
        assertThat(first.issuedAt()).isEqualTo(NOW);
        assertThat(first.expiresAt()).isEqualTo(NOW.plus(SETTINGS.timeRules().lifetime()));
        assertThat(first.rootKey()).isNotEqualTo(second.rootKey());
        assertThat(first.rootIdentifier()).isEqualTo(AnonModeTokens.rootIdentifier(first.token(), SETTINGS.limits()));
        assertThat(first.token().split("\\.", -1)).hasSize(2);
        assertThat(first.toString()).doesNotContain(first.token());
    }

    @Test
    void mintWhenOauthTokenExpiresSoonerThenRootExpiresWithIt() {
        AnonModeMinter minter = new AnonModeMinter(SETTINGS, NonceSource.secureRandom());

        MintedAnonMode minted = minter.mint(SUBJECT, DPA, DPR, NOW.plusSeconds(45));

        assertThat(minted.expiresAt()).isEqualTo(NOW.plusSeconds(45));
        assertThat(new AnonModeVerifier(SETTINGS)
                        .verify(minted.token(), SUBJECT)
                        .outermost()
                        .expiresAt())
                .isEqualTo(NOW.plusSeconds(45));
        assertThatAssertion(() -> minter.mint(SUBJECT, DPA, DPR, NOW)).hasCode(ErrorCode.EXPIRED);
        assertThatAssertion(() -> minter.mint(SUBJECT, DPA, "")).hasCode(ErrorCode.MALFORMED);
        assertThatAssertion(() -> minter.mint(SUBJECT, DPA, "x".repeat(3000))).hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void extendWhenLaterThenHopExpiresNoLaterThanTheLayerItWraps() {
        String root = new AnonModeMinter(SETTINGS, NonceSource.secureRandom())
                .mint(SUBJECT, DPA, DPR)
                .token();
        AnonModeSettings later = AnonModeVerifierTests.settingsAt(NOW.plusSeconds(100));

        String extended = new AnonModeExtender(later, NonceSource.secureRandom()).extend(root, SUBJECT);

        Map<String, Object> hop = Json.parseObject(AnonModeForge.payloadJson(extended, 1));
        assertThat(hop.keySet()).containsExactly("exp", "iat", "iss");
        assertThat(hop.get("iat").toString()).isEqualTo(String.valueOf(NOW.getEpochSecond() + 100));
        assertThat(hop.get("exp").toString()).isEqualTo(String.valueOf(NOW.getEpochSecond() + 120));
        assertThat(new AnonModeVerifier(later).verify(extended, TARGET).depth()).isEqualTo(2);
    }

    @Test
    void extendWhenTokenExpiredThenExpired() {
        String root = new AnonModeMinter(SETTINGS, NonceSource.secureRandom())
                .mint(SUBJECT, DPA, DPR)
                .token();
        AnonModeSettings muchLater = AnonModeVerifierTests.settingsAt(NOW.plus(Duration.ofMinutes(10)));

        assertThatAssertion(() -> new AnonModeExtender(muchLater, NonceSource.secureRandom()).extend(root, null))
                .hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void extendWhenNotACompleteTokenThenMalformed() {
        String token = AnonModeVerifierTests.chain(SETTINGS, 2);
        List<String> parts = AnonModeForge.parts(token);
        String stripped =
                String.join(".", parts.subList(0, 3)) + "." + parts.get(3).substring(0, 43);
        String nonCanonical = AnonModeForge.withLastResponsePlusOrder(token);
        AnonModeExtender extender = new AnonModeExtender(SETTINGS, NonceSource.secureRandom());

        for (String bad : List.of(stripped, nonCanonical, "a.b.c", "")) {
            assertThatAssertion(() -> extender.extend(bad, null)).hasCode(ErrorCode.MALFORMED);
        }
    }

    @Test
    void extendWhenAnyDepthThenRootIdentifierUnchanged() {
        NonceSource nonces = NonceSource.secureRandom();
        MintedAnonMode minted = new AnonModeMinter(SETTINGS, nonces).mint(SUBJECT, DPA, DPR);
        AnonModeExtender extender = new AnonModeExtender(SETTINGS, nonces);
        AnonModeVerifier verifier = new AnonModeVerifier(SETTINGS);

        String token = minted.token();
        for (int depth = 2; depth <= 6; depth++) {
            token = extender.extend(token, null);
            assertThat(verifier.rootIdentifier(token)).isEqualTo(minted.rootIdentifier());
        }
    }

    @Test
    void signRootWhenIssGivenThenRefused() {
        NonceSource nonces = NonceSource.secureRandom();
        SchnorrKeyPair key = SchnorrKeyPair.generate(nonces);

        assertThatThrownBy(() -> AnonModeTokens.signRoot(Map.of("iss", "x"), key, nonces))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nonceSourceWhenSequenceExhaustedThenRefusesToSign() {
        SchnorrKeyPair key = SchnorrKeyPair.of(Scalar.hash("k"));
        NonceSource one = NonceSource.sequence(List.of(Scalar.hash("n")));

        Schnorr.sign(key, "m", one);

        assertThatThrownBy(() -> Schnorr.sign(key, "m", one)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> NonceSource.sequence(List.of(Scalar.ZERO)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
