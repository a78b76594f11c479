package io.spiffeidt.core.anonmode;

import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.DPA;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.DPR;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.NOW;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.SUBJECT;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each token parsed once per request: an extension parses the token it extends once, and
 * the verification gives the root identifier of its own parse; both as parsing the text again would.
 */
class AnonModeParsedOnceTests {

    private static final AnonModeSettings SETTINGS = AnonModeVerifierTests.settingsAt(NOW);

    @Test
    void extendWhenGivenParsedTokenThenByteIdenticalToExtendingTheText() {
        String root = new AnonModeMinter(SETTINGS, NonceSource.secureRandom())
                .mint(SUBJECT, DPA, DPR)
                .token();
        Map<String, Object> claims = Map.of("exp", NOW.getEpochSecond() + 60, "iat", NOW.getEpochSecond());
        Scalar nonce = Scalar.of(BigInteger.valueOf(0x5eed));

        AnonModeLayer fromText =
                AnonModeTokens.extend(root, claims, NonceSource.sequence(List.of(nonce)), SETTINGS.limits());
        AnonModeLayer fromParsed = AnonModeTokens.extend(
                AnonModeToken.parse(root, SETTINGS.limits()),
                claims,
                NonceSource.sequence(List.of(nonce)),
                SETTINGS.limits());

        assertThat(fromParsed.token()).isEqualTo(fromText.token());
    }

    @Test
    void verifyOnceWhenVerifiedOrRememberedThenResultRootAndHopsOfTheText() {
        String token = twoLayers();
        AnonModeVerifier verifier = new AnonModeVerifier(SETTINGS);

        VerifiedAnonMode first = verifier.verifyOnce(token, SUBJECT);
        VerifiedAnonMode remembered = verifier.verifyOnce(token, SUBJECT);

        assertThat(verifier.rememberedTokenHits()).isEqualTo(1);
        assertThat(first.rootIdentifier())
                .isEqualTo(remembered.rootIdentifier())
                .isEqualTo(AnonModeTokens.rootIdentifier(token, SETTINGS.limits()));
        assertThat(first.result()).isEqualTo(remembered.result()).isEqualTo(verifier.verify(token, SUBJECT));
        assertThat(first.hopIdentities())
                .isEqualTo(remembered.hopIdentities())
                .isEqualTo(verifier.hopIdentities(token))
                .hasSize(1);
        assertThat(first.token()).isEqualTo(token);
    }

    @Test
    void extendLayerWhenGivenVerifiedTokenThenByteIdenticalToExtendingTheText() {
        String token = twoLayers();
        VerifiedAnonMode verified = new AnonModeVerifier(SETTINGS).verifyOnce(token, SUBJECT);
        Scalar nonce = Scalar.of(BigInteger.valueOf(0xbeef));

        AnonModeExtender.Extension fromText =
                new AnonModeExtender(SETTINGS, NonceSource.sequence(List.of(nonce))).extendLayer(token, SUBJECT);
        AnonModeExtender.Extension fromVerified =
                new AnonModeExtender(SETTINGS, NonceSource.sequence(List.of(nonce))).extendLayer(verified, SUBJECT);

        assertThat(fromVerified).isEqualTo(fromText);
    }

    @Test
    void extendLayerWhenVerifiedUnderLooserLimitsThenTheExtendersLimitsStillHold() {
        VerifiedAnonMode verified = new AnonModeVerifier(SETTINGS).verifyOnce(twoLayers(), SUBJECT);
        Limits one = new Limits(256 * 1024, 1, 2048, 80, 256);

        assertThatAssertion(() -> new AnonModeExtender(SETTINGS.withLimits(one), NonceSource.secureRandom())
                        .extendLayer(verified, SUBJECT))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    /** A root addressed to the subject workload, extended once. */
    private static String twoLayers() {
        String root = new AnonModeMinter(SETTINGS, NonceSource.secureRandom())
                .mint(SUBJECT, DPA, DPR)
                .token();
        return new AnonModeExtender(SETTINGS, NonceSource.secureRandom()).extend(root, SUBJECT);
    }
}
