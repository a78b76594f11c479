package io.spiffeidt.support.hop;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;

/** {@link HopContractTests} for ID-Mode: the asserting workload's root, the subject's layer, the hops. */
class IdModeHopContractTests extends HopContractTests<VerifiedIdMode> {

    private final IdModeHop asserting = TestHops.idModeAsserting(TestIdentities.source(Role.ASSERTING_WL));
    private final IdModeHop subject = TestHops.idMode(Role.SUBJECT_WL, subjectSource);
    private final IdModeHop target = TestHops.idMode(Role.TARGET_WL, targetSource);

    @Override
    Received fromSubject() {
        IdModePresentation root =
                asserting.minting().orElseThrow().mint(grantToSubject()).document();
        Verified<VerifiedIdMode> answer =
                subject.accept(new Received(root.token(), root.artifacts().toJson()));
        Outgoing sent = subject.forward(answer, Role.M_TIER);
        return new Received(sent.token(), sent.artifacts());
    }

    @Override
    Hop<VerifiedIdMode> mTier(HopServices services) {
        return TestHops.idMode(Role.M_TIER, mTierSource, services);
    }

    @Override
    Hop<VerifiedIdMode> target() {
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
