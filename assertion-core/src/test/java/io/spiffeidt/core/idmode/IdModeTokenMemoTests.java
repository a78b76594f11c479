package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.CA;
import static io.spiffeidt.core.idmode.IdModeWorld.MTIER;
import static io.spiffeidt.core.idmode.IdModeWorld.NOW;
import static io.spiffeidt.core.idmode.IdModeWorld.SUBJECT;
import static io.spiffeidt.core.idmode.IdModeWorld.TARGET;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.memo.MemoEvents;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.testkit.MutableClock;
import io.spiffeidt.testkit.TestPki;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The memo of verified tokens skips only the decoding and the signature checks of a token
 * received again with the same artifacts: every other check still runs, and a rejection stays a
 * rejection.
 */
class IdModeTokenMemoTests {

    private static final IdModePresentation VALID = IdModeWorld.pocPath();
    private static final String TOKEN = VALID.token();
    private static final String ARTIFACTS = VALID.artifacts().toJson();

    private final MutableClock clock = MutableClock.at(NOW);
    private final AtomicReference<TrustBundle> bundle = new AtomicReference<>(CA.bundle());
    private final IdModeVerifier remembering = verifier(64);

    private IdModeVerifier verifier(int tokenCacheSize) {
        TrustBundleSource bundles =
                td -> Optional.of(bundle.get()).filter(b -> b.trustDomain().equals(td));
        return new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT)
                        .withTimeRules(TimeRules.defaults(clock))
                        .withBundles(bundles),
                TestPki.BC,
                Memos.of(
                        name -> name.equals(IdModeVerifier.TOKEN_MEMO)
                                ? MemoSettings.DEFAULTS.withSize(tokenCacheSize)
                                : MemoSettings.DEFAULTS,
                        clock,
                        MemoEvents.NONE));
    }

    private VerifiedIdMode verify(IdModeVerifier verifier, String token, String artifacts) {
        return verifier.verifyEncoded(token, artifacts, TARGET.spiffeId(), IdModeWorld.presenter(MTIER));
    }

    @Test
    void verifyEncodedWhenReceivedAgainThenFoundAndTheVerdictIsUnchanged() {
        VerifiedIdMode first = verify(remembering, TOKEN, ARTIFACTS);
        VerifiedIdMode again = verify(remembering, TOKEN, ARTIFACTS);

        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
        assertThat(again.result()).isEqualTo(first.result());
        assertThat(again.path()).isEqualTo(first.path());
        assertThat(verify(verifier(0), TOKEN, ARTIFACTS).result()).isEqualTo(first.result());
    }

    @Test
    void verifyEncodedWhenRememberedThenAudienceAndPresenterAreCheckedAgain() {
        verify(remembering, TOKEN, ARTIFACTS);

        assertThatAssertion(() ->
                        remembering.verifyEncoded(TOKEN, ARTIFACTS, MTIER.spiffeId(), IdModeWorld.presenter(MTIER)))
                .hasCode(ErrorCode.WRONG_AUDIENCE);
        assertThatAssertion(() ->
                        remembering.verifyEncoded(TOKEN, ARTIFACTS, TARGET.spiffeId(), IdModeWorld.presenter(SUBJECT)))
                .hasCode(ErrorCode.WRONG_PRESENTER);
        assertThat(remembering.rememberedTokenHits()).isEqualTo(2);
    }

    @Test
    void verifyEncodedWhenRememberedAndThenExpiredThenExpired() {
        verify(remembering, TOKEN, ARTIFACTS);
        clock.set(NOW.plus(Duration.ofHours(1)));

        assertThatAssertion(() -> verify(remembering, TOKEN, ARTIFACTS)).hasCode(ErrorCode.EXPIRED);
        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
    }

    @Test
    void verifyEncodedWhenRememberedAndTheBundleRotatedAwayThenUntrustedKey() {
        verify(remembering, TOKEN, ARTIFACTS);
        bundle.set(TestPki.newCa("example.org").bundle());

        assertThatAssertion(() -> verify(remembering, TOKEN, ARTIFACTS)).hasCode(ErrorCode.UNTRUSTED_KEY);
        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
    }

    @Test
    void verifyEncodedWhenTheSameTokenComesWithOtherArtifactsThenTheyAreCheckedInFull() {
        verify(remembering, TOKEN, ARTIFACTS);
        // the outermost layer's chain swapped for another certificate of m-tier, with another key
        List<List<X509Certificate>> chains = new ArrayList<>(VALID.artifacts().chains());
        chains.set(chains.size() - 1, CA.issue("m-tier").chain());
        String otherArtifacts = IdModeArtifacts.of(chains).toJson();

        assertThatAssertion(() -> verify(remembering, TOKEN, otherArtifacts)).hasCode(ErrorCode.BAD_SIGNATURE);
        assertThat(remembering.rememberedTokenHits()).isZero();
        assertThat(verify(remembering, TOKEN, ARTIFACTS).result()).isNotNull();
        assertThat(remembering.rememberedTokenHits()).isEqualTo(1);
    }

    @Test
    void verifyEncodedWhenRejectedThenNotRemembered() {
        // one character inside the outermost signature changed
        int at = TOKEN.length() - 20;
        String tampered = TOKEN.substring(0, at) + (TOKEN.charAt(at) == 'A' ? 'B' : 'A') + TOKEN.substring(at + 1);

        assertThatAssertion(() -> verify(remembering, tampered, ARTIFACTS)).hasCode(ErrorCode.BAD_SIGNATURE);
        assertThatAssertion(() -> verify(remembering, tampered, ARTIFACTS)).hasCode(ErrorCode.BAD_SIGNATURE);
        assertThat(remembering.rememberedTokenHits()).isZero();
    }

    @Test
    void verifyEncodedWhenNothingIsRememberedThenNothingIsFound() {
        IdModeVerifier perCall = verifier(0);
        verify(perCall, TOKEN, ARTIFACTS);
        verify(perCall, TOKEN, ARTIFACTS);

        assertThat(perCall.rememberedTokenHits()).isZero();
    }

    @Test
    void verifyEncodedWhenArtifactsMissingThenMalformed() {
        assertThatAssertion(() -> verify(remembering, TOKEN, null)).hasCode(ErrorCode.MALFORMED);
        assertThatAssertion(() -> verify(remembering, null, ARTIFACTS)).hasCode(ErrorCode.MALFORMED);
    }
}
