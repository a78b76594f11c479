package io.spiffeidt.core.anonmode;

import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.DPA;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.DPR;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.NOW;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.SUBJECT;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each token parsed once per request (issue 27): an extension parses the token it extends once, and
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
    void verifyRootedWhenVerifiedOrRememberedThenResultAndRootIdentifierOfTheText() {
        String root = new AnonModeMinter(SETTINGS, NonceSource.secureRandom())
                .mint(SUBJECT, DPA, DPR)
                .token();
        AnonModeVerifier verifier = new AnonModeVerifier(SETTINGS);

        AnonModeVerifier.Rooted first = verifier.verifyRooted(root, SUBJECT);
        AnonModeVerifier.Rooted remembered = verifier.verifyRooted(root, SUBJECT);

        assertThat(verifier.rememberedTokenHits()).isEqualTo(1);
        assertThat(first.rootIdentifier())
                .isEqualTo(remembered.rootIdentifier())
                .isEqualTo(AnonModeTokens.rootIdentifier(root, SETTINGS.limits()));
        assertThat(first.result()).isEqualTo(remembered.result()).isEqualTo(verifier.verify(root, SUBJECT));
    }
}
