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

/** An extension parses the token it extends once (issue 27), with the output of parsing its text. */
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
}
