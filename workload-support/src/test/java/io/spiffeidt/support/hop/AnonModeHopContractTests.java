package io.spiffeidt.support.hop;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.core.anonmode.VerifiedAnonMode;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;

/** {@link HopContractTests} for Anon-Mode: the asserting workload's root, the subject's layer, the hops. */
class AnonModeHopContractTests extends HopContractTests<VerifiedAnonMode> {

    private final AnonModeHop asserting = TestHops.anonModeAsserting(TestIdentities.source(Role.ASSERTING_WL));
    private final AnonModeHop subject = TestHops.anonMode(Role.SUBJECT_WL, subjectSource);
    private final AnonModeHop target = TestHops.anonMode(Role.TARGET_WL, targetSource);

    @Override
    Received fromSubject() {
        MintedAnonMode root =
                asserting.minting().orElseThrow().mint(grantToSubject()).document();
        Verified<VerifiedAnonMode> answer = subject.accept(Received.of(root.token()));
        Outgoing sent = subject.forward(answer, Role.M_TIER);
        return new Received(sent.token(), sent.artifacts());
    }

    @Override
    Hop<VerifiedAnonMode> mTier(HopServices services) {
        return TestHops.anonMode(Role.M_TIER, mTierSource, services);
    }

    @Override
    Hop<VerifiedAnonMode> target() {
        return target;
    }

    @Override
    boolean introspects() {
        return true;
    }

    @Override
    ErrorCode tamperedCode() {
        return ErrorCode.BAD_SIGNATURE;
    }
}
