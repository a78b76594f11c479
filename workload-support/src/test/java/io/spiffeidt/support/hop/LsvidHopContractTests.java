package io.spiffeidt.support.hop;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;

/** {@link HopContractTests} for LSVID: the subject's base, the asserting workload's delegation, the hops. */
class LsvidHopContractTests extends HopContractTests<Lsvid> {

    private final LsvidHop asserting = TestHops.lsvid(Role.ASSERTING_WL, TestIdentities.source(Role.ASSERTING_WL));
    private final LsvidHop subject = TestHops.lsvid(Role.SUBJECT_WL, subjectSource);
    private final LsvidHop target = TestHops.lsvid(Role.TARGET_WL, targetSource);

    @Override
    Received fromSubject() {
        Outgoing request = subject.begin(Role.ASSERTING_WL);
        Minted<Lsvid> delegated =
                asserting.mint(Received.of(request.token()), caller(Role.SUBJECT_WL, subjectSource), grantToSubject());
        Verified<Lsvid> answer = subject.accept(Received.of(delegated.token()));
        Outgoing sent = subject.forward(answer, Role.M_TIER);
        return new Received(sent.token(), sent.artifacts());
    }

    @Override
    Hop<Lsvid> mTier(HopServices services) {
        return TestHops.lsvid(Role.M_TIER, mTierSource, services);
    }

    @Override
    Hop<Lsvid> target() {
        return target;
    }

    @Override
    boolean introspects() {
        return false;
    }

    /** The document is one base64url JSON text: a changed character breaks its JSON before any signature. */
    @Override
    ErrorCode tamperedCode() {
        return ErrorCode.MALFORMED;
    }
}
