package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.MTIER;
import static io.spiffeidt.core.idmode.IdModeWorld.NOW;
import static io.spiffeidt.core.idmode.IdModeWorld.SUBJECT;
import static io.spiffeidt.core.idmode.IdModeWorld.TARGET;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.testkit.TestPki;
import org.junit.jupiter.api.Test;

/**
 * Each token is parsed once per request: the verifier hands its parse on in the
 * verified result, verifies a token the caller parsed as it is, and the extender gives the times
 * of the layer it added, with the same results as parsing the text again.
 */
class IdModeParsedOnceTests {

    @Test
    void verifyWhenGivenParsedTokenThenVerifiesThatParseWithTheTextsResult() {
        IdModePresentation path = IdModeWorld.pocPath();
        IdModeToken parsed = IdModeToken.parse(path.token(), Limits.defaults());
        IdModeVerifier verifier = IdModeWorld.verifier();

        VerifiedIdMode fromParsed = verifier.verifyWithoutPresenter(parsed, path.artifacts(), TARGET.spiffeId());
        VerifiedIdMode fromText = verifier.verifyWithoutPresenter(path.token(), path.artifacts(), TARGET.spiffeId());

        assertThat(fromParsed.token()).isSameAs(parsed);
        assertThat(fromParsed.result()).isEqualTo(fromText.result());
        assertThat(fromParsed.path()).isEqualTo(fromText.path());
        assertThat(fromParsed.presentation().token()).isEqualTo(path.token());
    }

    @Test
    void verifyWhenParsedUnderLooserLimitsThenParsedAgainUnderTheVerifiers() {
        IdModePresentation path = IdModeWorld.pocPath();
        IdModeToken parsed = IdModeToken.parse(path.token(), Limits.defaults());
        Limits twoLayers = new Limits(256 * 1024, 2, 2048, 80, 256);
        IdModeVerifier verifier = new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT).withLimits(twoLayers), TestPki.BC);

        assertThatAssertion(() -> verifier.verifyWithoutPresenter(parsed, path.artifacts(), TARGET.spiffeId()))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenVerifiedThenResultCarriesTheParseOfTheVerifiedText() {
        IdModePresentation path = IdModeWorld.pocPath();

        VerifiedIdMode verified = IdModeWorld.verifier()
                .verifyEncodedWithoutPresenter(path.token(), path.artifacts().toJson(), TARGET.spiffeId());

        IdModeToken reparsed = IdModeToken.parse(path.token(), Limits.defaults());
        assertThat(verified.token().text()).isEqualTo(path.token());
        assertThat(verified.rootClaims()).isEqualTo(reparsed.claims(0));
        assertThat(verified.token().prefix(1)).isEqualTo(reparsed.prefix(1));
    }

    @Test
    void extendLayerWhenExtendedThenTimesAreThoseWrittenInTheNewLayer() {
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        VerifiedIdMode verified =
                IdModeWorld.verifier().verifyWithoutPresenter(two.token(), two.artifacts(), MTIER.spiffeId());
        IdModeExtender extender =
                new IdModeExtender(MTIER, IdModeWorld.time(NOW.plusMillis(1500)), Limits.defaults(), TestPki.BC);

        IdModeExtender.Extension extension = extender.extendLayer(verified, TARGET.spiffeId());

        IdModeClaims written = IdModeToken.parse(extension.presentation().token(), Limits.defaults())
                .claims(verified.depth());
        assertThat(extension.issuedAt()).isEqualTo(written.issuedAt()).isEqualTo(NOW.plusSeconds(1));
        assertThat(extension.expiresAt()).isEqualTo(written.expiresAt());
        assertThat(extension.presentation().artifacts().size()).isEqualTo(3);
    }
}
