package io.spiffeidt.core.idmode;

import static io.spiffeidt.core.idmode.IdModeWorld.CA;
import static io.spiffeidt.core.idmode.IdModeWorld.MTIER;
import static io.spiffeidt.core.idmode.IdModeWorld.NOW;
import static io.spiffeidt.core.idmode.IdModeWorld.SUBJECT;
import static io.spiffeidt.core.idmode.IdModeWorld.TARGET;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.internal.ValidatedChains;
import io.spiffeidt.testkit.MutableClock;
import io.spiffeidt.testkit.TestMemos;
import io.spiffeidt.testkit.TestPki;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The memo of validated chains never changes a verdict: a remembered chain is re-checked against
 * the current bundle and the current time.
 */
class IdModeChainCacheTests {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1024})
    void verifyWhenCertificateExpiresAfterFirstVerificationThenUntrustedKey(int cacheSize) {
        IdModeCredentials shortLived = IdModeWorld.credentials(
                CA.issue(TestPki.ecKeyPair(), MTIER.spiffeId(), false, TestPki.NOT_BEFORE, NOW.plusSeconds(60)));
        IdModePresentation two = IdModeWorld.extend(SUBJECT, IdModeWorld.mint(NOW), MTIER.spiffeId(), NOW);
        IdModePresentation three = IdModeWorld.extend(shortLived, two, TARGET.spiffeId(), NOW);
        MutableClock clock = MutableClock.at(NOW);
        IdModeVerifier verifier = new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT).withTimeRules(TimeRules.defaults(clock)),
                TestPki.BC,
                TestMemos.sized(cacheSize));
        Presenter peer = IdModeWorld.presenter(shortLived);

        assertThat(verifier.verify(three, TARGET.spiffeId(), peer).depth()).isEqualTo(3);
        clock.set(NOW.plusSeconds(80));
        assertThatAssertion(() -> verifier.verify(three, TARGET.spiffeId(), peer))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1024})
    void verifyWhenBundleRotatedAwayAfterFirstVerificationThenUntrustedKey(int cacheSize) {
        AtomicReference<TrustBundle> current = new AtomicReference<>(CA.bundle());
        TrustBundleSource source =
                td -> Optional.of(current.get()).filter(b -> b.trustDomain().equals(td));
        IdModeVerifier verifier = new IdModeVerifier(
                IdModeWorld.settings(VerificationProfile.STRICT).withBundles(source),
                TestPki.BC,
                TestMemos.sized(cacheSize));
        IdModePresentation valid = IdModeWorld.pocPath();
        Presenter peer = IdModeWorld.presenter(MTIER);

        assertThat(verifier.verify(valid, TARGET.spiffeId(), peer).depth()).isEqualTo(3);
        current.set(TestPki.newCa("example.org").bundle());
        assertThatAssertion(() -> verifier.verify(valid, TARGET.spiffeId(), peer))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenSameChainsVerifiedAgainThenRememberedAndSignaturesStillChecked() {
        ValidatedChains memo = new ValidatedChains(TestMemos.sized(8), IdModeVerifier.CHAIN_MEMO);
        IdModePresentation valid = IdModeWorld.pocPath();
        for (int k = 0; k < valid.artifacts().size(); k++) {
            memo.validate(
                    valid.artifacts().chain(k), valid.artifacts().toBase64().get(k), CA.bundle(), NOW, k);
        }
        assertThat(memo.size()).isEqualTo(3);

        IdModeVerifier verifier = IdModeWorld.verifier();
        assertThat(verifier.verify(valid, TARGET.spiffeId(), IdModeWorld.presenter(MTIER))
                        .depth())
                .isEqualTo(3);
        String[] parts = valid.token().split("\\.");
        byte[] sig = io.spiffeidt.core.internal.Codec.fromB64url(parts[5]);
        sig[sig.length - 1] ^= 1;
        parts[5] = io.spiffeidt.core.internal.Codec.b64url(sig);
        String tampered = String.join(".", parts);
        assertThatAssertion(() ->
                        verifier.verify(tampered, valid.artifacts(), TARGET.spiffeId(), IdModeWorld.presenter(MTIER)))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenMemoFullThenBounded() {
        ValidatedChains memo = new ValidatedChains(TestMemos.sized(2), IdModeVerifier.CHAIN_MEMO);
        IdModePresentation valid = IdModeWorld.pocPath();
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < valid.artifacts().size(); k++) {
                memo.validate(
                        valid.artifacts().chain(k), valid.artifacts().toBase64().get(k), CA.bundle(), NOW, k);
                assertThat(memo.size()).isLessThanOrEqualTo(2);
            }
        }
        assertThat(IdModeArtifacts.parse(valid.artifacts().toJson(), Limits.defaults()))
                .isEqualTo(valid.artifacts());
    }
}
