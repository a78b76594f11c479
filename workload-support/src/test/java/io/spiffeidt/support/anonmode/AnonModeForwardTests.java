package io.spiffeidt.support.anonmode;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.testkit.MutableClock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link AnonModeHop#forward}: outside the {@code thesis} profile a hop gives the same
 * young extension of the same token again, and the next hop finds that token verified before; half
 * the layer's lifetime ends the reuse.
 */
class AnonModeForwardTests {

    private final MutableClock clock = MutableClock.at(Instant.now());
    private final AnonModeHop asserting = TestHops.anonModeAsserting(TestIdentities.source(Role.ASSERTING_WL));
    private final AnonModeHop subject =
            TestHops.anonMode(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL), clock, true);
    private final AnonModeHop mTier = TestHops.anonMode(Role.M_TIER, TestIdentities.source(Role.M_TIER), clock, true);

    private String root() {
        String root = asserting
                .minting()
                .orElseThrow()
                .mint(new Grant(
                        subject.self(), "http://idp", "user0001", Instant.now().plusSeconds(600)))
                .token();
        subject.verify(root);
        return root;
    }

    @Test
    void forwardWhenReusingThenTheSameTokenGetsTheSameExtensionAndTheNextHopFindsItVerified() {
        String root = root();

        String first = subject.forward(root);
        String again = subject.forward(root);

        assertThat(again).isEqualTo(first);
        assertThat(subject.reusedExtensions()).isEqualTo(1);
        VerifiedResult once = mTier.verify(first);
        VerifiedResult twice = mTier.verify(again);
        assertThat(twice).isEqualTo(once);
        assertThat(once.depth()).isEqualTo(2);
        assertThat(mTier.forward(again)).isEqualTo(mTier.forward(first));
        assertThat(mTier.reusedExtensions()).isEqualTo(1);
    }

    @Test
    void forwardWhenHalfTheLifetimeHasPassedThenANewExtensionIsSigned() {
        String root = root();
        String first = subject.forward(root);
        VerifiedResult layer = mTier.verify(first);
        long iat = layer.outermost().issuedAt().getEpochSecond();
        long exp = layer.outermost().expiresAt().getEpochSecond();

        clock.set(Instant.ofEpochSecond(iat + (exp - iat) / 2 - 1));
        String young = subject.forward(root);
        clock.set(Instant.ofEpochSecond(iat + (exp - iat) / 2));
        String renewed = subject.forward(root);

        assertThat(exp - iat).isGreaterThan(60);
        assertThat(young).isEqualTo(first);
        assertThat(renewed).isNotEqualTo(first);
        assertThat(mTier.verify(renewed).outermost().issuedAt().getEpochSecond())
                .isEqualTo(iat + (exp - iat) / 2);
    }

    @Test
    void forwardWhenNotReusingThenEveryForwardSignsANewExtensionAndNothingIsRemembered() {
        AnonModeHop perRequest = TestHops.anonMode(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL));
        AnonModeHop mTierPerRequest = TestHops.anonMode(Role.M_TIER, TestIdentities.source(Role.M_TIER));
        String root = root();

        String first = perRequest.forward(root);
        String again = perRequest.forward(root);
        mTierPerRequest.verify(first);
        mTierPerRequest.verify(first);

        assertThat(again).isNotEqualTo(first);
        assertThat(perRequest.reusedExtensions()).isZero();
        assertThat(perRequest.reusesExtensions()).isFalse();
        assertThat(mTierPerRequest.verifier().rememberedTokenHits()).isZero();
    }
}
