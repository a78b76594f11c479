package io.spiffeidt.core.anonmode;

import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.M_TIER;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.NOW;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.SUBJECT;
import static io.spiffeidt.core.anonmode.AnonModeVerifierTests.TARGET;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.testkit.MutableClock;
import io.spiffeidt.testkit.TestMemos;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The memo of verified tokens skips only the decoding, the key chain and the equation of
 * a token received again: claims, times and audience are checked on every call, and a rejection
 * stays a rejection.
 */
class AnonModeTokenMemoTests {

    private final MutableClock clock = MutableClock.at(NOW);
    private final AnonModeSettings settings = AnonModeSettings.strict(SUBJECT, clock);
    private final String token = AnonModeVerifierTests.chain(settings, 3);
    private final AnonModeVerifier remembering = new AnonModeVerifier(settings, TestMemos.sized(64));

    @Test
    void verifyWhenReceivedAgainThenFoundAndTheVerdictIsUnchanged() {
        VerifiedResult first = remembering.verify(token, TARGET);
        VerifiedResult again = remembering.verify(token, TARGET);

        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
        assertThat(again).isEqualTo(first);
        assertThat(new AnonModeVerifier(settings).verify(token, TARGET)).isEqualTo(first);
    }

    @Test
    void verifyWhenRememberedAndThenExpiredThenExpired() {
        remembering.verify(token, TARGET);
        clock.set(NOW.plus(Duration.ofHours(1)));

        assertThatAssertion(() -> remembering.verify(token, TARGET)).hasCode(ErrorCode.EXPIRED);
        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
    }

    @Test
    void verifyWhenRememberedRootOnlyThenTheAudienceIsCheckedAgain() {
        String root = AnonModeVerifierTests.chain(settings, 1);
        remembering.verify(root, SUBJECT);

        assertThatAssertion(() -> remembering.verify(root, M_TIER)).hasCode(ErrorCode.WRONG_AUDIENCE);
        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
    }

    @Test
    void verifyWhenRejectedThenNotRemembered() {
        List<String> parts = AnonModeForge.parts(token);
        byte[] last = Codec.fromB64url(parts.get(5));
        last[40] ^= 0x01;
        parts.set(5, Codec.b64url(last));
        String tampered = AnonModeForge.join(parts);

        assertThatAssertion(() -> remembering.verify(tampered, TARGET)).hasCode(ErrorCode.BAD_SIGNATURE);
        assertThatAssertion(() -> remembering.verify(tampered, TARGET)).hasCode(ErrorCode.BAD_SIGNATURE);
        assertThat(remembering.rememberedTokenHits()).isZero();
    }

    @Test
    void verifyWhenNothingIsRememberedThenNothingIsFound() {
        AnonModeVerifier perCall = new AnonModeVerifier(settings, Memos.none());
        perCall.verify(token, TARGET);
        perCall.verify(token, TARGET);

        assertThat(perCall.rememberedTokenHits()).isZero();
    }
}
