package io.spiffeidt.support.idmode;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.idmode.IdModeClaims;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.testkit.MutableClock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link IdModeHop#forward}: outside the {@code thesis} profile a hop gives the same
 * young extension of the same token again, and the next hop finds that token verified before; a
 * rotated SVID or half the layer's lifetime ends the reuse.
 */
class IdModeForwardTests {

    private final MutableClock clock = MutableClock.at(Instant.now());
    private final StaticX509Source subjectSource = TestIdentities.source(Role.SUBJECT_WL);
    private final StaticX509Source mTierSource = TestIdentities.source(Role.M_TIER);
    private final IdModeHop asserting = TestHops.idModeAsserting(TestIdentities.source(Role.ASSERTING_WL));
    private final IdModeHop subject = TestHops.idMode(Role.SUBJECT_WL, subjectSource, clock, true);
    private final IdModeHop mTier = TestHops.idMode(Role.M_TIER, mTierSource, clock, true);

    private VerifiedIdMode rootAt(IdModeHop hop) {
        IdModePresentation root = asserting
                .minting()
                .orElseThrow()
                .mint(new Grant(
                        hop.self(), "http://idp", "user0001", Instant.now().plusSeconds(600)))
                .document();
        return hop.verifyAnswer(root.token(), root.artifacts().toJson());
    }

    private VerifiedIdMode atMtier(IdModeHop.Forwarded f, StaticX509Source presentedBy) {
        Presenter presenter = new Presenter(
                subject.self(), presentedBy.getX509Svid().getLeaf().getPublicKey());
        return mTier.verify(f.presentation().token(), f.artifacts(), presenter);
    }

    private IdModeClaims outermost(IdModeHop.Forwarded f) {
        return subject.parse(f.presentation().token())
                .claims(f.presentation().artifacts().size() - 1);
    }

    @Test
    void forwardWhenReusingThenTheSameTokenGetsTheSameExtensionAndTheNextHopFindsItVerified() {
        VerifiedIdMode root = rootAt(subject);

        IdModeHop.Forwarded first = subject.forward(root, subject.idOf(Role.M_TIER));
        IdModeHop.Forwarded again = subject.forward(root, subject.idOf(Role.M_TIER));
        IdModeHop.Forwarded elsewhere = subject.forward(root, subject.idOf(Role.TARGET_WL));

        assertThat(again).isSameAs(first);
        assertThat(elsewhere).isNotSameAs(first);
        assertThat(subject.reusedExtensions()).isEqualTo(1);
        assertThat(first.artifacts()).isEqualTo(first.presentation().artifacts().toJson());
        assertThat(outermost(first).audience()).isEqualTo(subject.idOf(Role.M_TIER));

        // m-tier receives the same text twice: the second is found verified, and forwarded alike
        VerifiedIdMode once = atMtier(first, subjectSource);
        VerifiedIdMode twice = atMtier(again, subjectSource);
        assertThat(mTier.verifier().rememberedTokenHits()).isEqualTo(1);
        assertThat(twice.result()).isEqualTo(once.result());
        IdModeHop.Forwarded onward = mTier.forward(once, mTier.idOf(Role.TARGET_WL));
        assertThat(mTier.forward(twice, mTier.idOf(Role.TARGET_WL))).isSameAs(onward);
        assertThat(mTier.reusedExtensions()).isEqualTo(1);
    }

    @Test
    void forwardWhenHalfTheLifetimeHasPassedThenANewExtensionIsSigned() {
        VerifiedIdMode root = rootAt(subject);
        IdModeHop.Forwarded first = subject.forward(root, subject.idOf(Role.M_TIER));
        long iat = outermost(first).issuedAt().getEpochSecond();
        long exp = outermost(first).expiresAt().getEpochSecond();

        clock.set(Instant.ofEpochSecond(iat + (exp - iat) / 2 - 1));
        IdModeHop.Forwarded young = subject.forward(root, subject.idOf(Role.M_TIER));
        clock.set(Instant.ofEpochSecond(iat + (exp - iat) / 2));
        IdModeHop.Forwarded renewed = subject.forward(root, subject.idOf(Role.M_TIER));

        assertThat(exp - iat).isGreaterThan(60);
        assertThat(young).isSameAs(first);
        assertThat(renewed).isNotSameAs(first);
        assertThat(outermost(renewed).issuedAt().getEpochSecond()).isEqualTo(iat + (exp - iat) / 2);
    }

    @Test
    void forwardWhenTheSvidRotatedThenANewExtensionIsSignedWithTheNewKey() {
        VerifiedIdMode root = rootAt(subject);
        IdModeHop.Forwarded first = subject.forward(root, subject.idOf(Role.M_TIER));

        subjectSource.rotate(TestIdentities.source(Role.SUBJECT_WL).getX509Svid());
        IdModeHop.Forwarded rotated = subject.forward(root, subject.idOf(Role.M_TIER));

        assertThat(rotated).isNotSameAs(first);
        // m-tier's presenter check needs the key of the connection's SVID, which is the new one
        assertThat(atMtier(rotated, subjectSource).depth()).isEqualTo(2);
        assertThatAssertion(() -> atMtier(first, subjectSource)).hasCode(ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void forwardWhenNotReusingThenEveryForwardSignsANewExtensionAndNothingIsRemembered() {
        IdModeHop perRequest = TestHops.idMode(Role.SUBJECT_WL, subjectSource, clock, false);
        IdModeHop mTierPerRequest = TestHops.idMode(Role.M_TIER, mTierSource, clock, false);
        VerifiedIdMode root = rootAt(perRequest);

        IdModeHop.Forwarded first = perRequest.forward(root, perRequest.idOf(Role.M_TIER));
        IdModeHop.Forwarded again = perRequest.forward(root, perRequest.idOf(Role.M_TIER));
        Presenter presenter = new Presenter(
                perRequest.self(), subjectSource.getX509Svid().getLeaf().getPublicKey());
        mTierPerRequest.verify(first.presentation().token(), first.artifacts(), presenter);
        mTierPerRequest.verify(first.presentation().token(), first.artifacts(), presenter);

        assertThat(again.presentation().token())
                .isNotEqualTo(first.presentation().token());
        assertThat(perRequest.reusedExtensions()).isZero();
        assertThat(perRequest.reusesExtensions()).isFalse();
        assertThat(mTierPerRequest.verifier().rememberedTokenHits()).isZero();
    }
}
