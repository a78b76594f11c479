package io.spiffeidt.support.lsvid;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.testkit.MutableClock;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The hop as the workloads use it, with SVIDs of one test CA: the mint exchange and its checks. */
class LsvidHopTests {

    private static final Instant OAUTH_EXPIRY = Instant.now().plusSeconds(600);

    private static final StaticX509Source SUBJECT_SOURCE = TestIdentities.source(Role.SUBJECT_WL);

    private final LsvidHop subject = hop(Role.SUBJECT_WL, SUBJECT_SOURCE);
    private final LsvidHop asserting = hop(Role.ASSERTING_WL, TestIdentities.source(Role.ASSERTING_WL));
    private final LsvidHop mTier = hop(Role.M_TIER, TestIdentities.source(Role.M_TIER));

    @Test
    void verifyAnswerWhenAssertingDelegatedThenVerifiedWithTheUser() {
        String answer = delegatedBy(asserting);

        LsvidVerification verified = subject.verifyAnswer(answer, Role.ASSERTING_WL);

        assertThat(verified.delegation().dpr()).isEqualTo("user0001");
        assertThat(verified.delegation().dpa()).isEqualTo("http://idp");
    }

    @Test
    void verifyAnswerWhenAnotherWorkloadDelegatesThenRejected() {
        // m-tier, asked as if it were the asserting workload, adds a validly signed delegation
        String forged = delegatedBy(mTier);

        // the delegation check (step 4) comes before the presenter check (step 5)
        assertThatAssertion(() -> subject.verifyAnswer(forged, Role.ASSERTING_WL))
                .hasCode(ErrorCode.DELEGATION_INVALID);
        assertThatAssertion(() -> subject.verifyAnswer(forged, Role.M_TIER)).hasCode(ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyAnswerWhenAttributedToAnotherRoleThenWrongPresenter() {
        assertThatAssertion(() -> subject.verifyAnswer(delegatedBy(asserting), Role.M_TIER))
                .hasCode(ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void verifyAnswerWhenNoDelegationOrNoExtensionThenRejected() {
        Lsvid request = subject.start(subject.idOf(Role.ASSERTING_WL));
        String undelegated = LsvidCodec.encode(asserting.extend(request, subject.self()));
        String baseOnly =
                LsvidCodec.encode(Lsvid.of(request.token().payload().iss().id()));

        assertThatAssertion(() -> subject.verifyAnswer(undelegated, Role.ASSERTING_WL))
                .hasCode(ErrorCode.DELEGATION_INVALID);
        assertThatAssertion(() -> subject.verifyAnswer(baseOnly, Role.ASSERTING_WL))
                .hasCode(ErrorCode.MALFORMED);
        assertThatAssertion(() -> subject.verifyAnswer("not an lsvid", Role.ASSERTING_WL))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void forwardWhenReusingThenTheSameDocumentGetsTheSameExtensionWhileYoung() {
        MutableClock clock = MutableClock.at(Instant.now());
        LsvidHop reusing = hop(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL), clock, true);
        Lsvid kept = reusing.start(reusing.idOf(Role.ASSERTING_WL));

        LsvidHop.Extension first = reusing.forward(kept, reusing.idOf(Role.M_TIER));
        LsvidHop.Extension again = reusing.forward(kept, reusing.idOf(Role.M_TIER));
        LsvidHop.Extension elsewhere = reusing.forward(kept, reusing.idOf(Role.TARGET_WL));
        LsvidHop.Extension otherDocument =
                reusing.forward(reusing.parse(LsvidCodec.encode(kept)), reusing.idOf(Role.M_TIER));

        assertThat(again).isSameAs(first);
        assertThat(reusing.reusedExtensions()).isEqualTo(1);
        assertThat(first.encoded()).isEqualTo(LsvidCodec.encode(first.document()));
        assertThat(first.document().token().payload().aud().cn()).isEqualTo(TestIdentities.id(Role.M_TIER));
        assertThat(elsewhere.document().token().payload().aud().cn()).isEqualTo(TestIdentities.id(Role.TARGET_WL));
        // found by the very document instance: an equal document decoded anew is extended anew
        assertThat(otherDocument).isNotSameAs(first);
    }

    @Test
    void forwardWhenHalfTheLifetimeHasPassedThenANewExtensionIsSigned() {
        MutableClock clock = MutableClock.at(Instant.now());
        LsvidHop reusing = hop(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL), clock, true);
        Lsvid kept = reusing.start(reusing.idOf(Role.ASSERTING_WL));
        LsvidHop.Extension first = reusing.forward(kept, reusing.idOf(Role.M_TIER));
        long iat = first.document().token().payload().iat();
        long exp = first.document().token().payload().exp();

        clock.set(Instant.ofEpochSecond(iat + (exp - iat) / 2 - 1));
        LsvidHop.Extension young = reusing.forward(kept, reusing.idOf(Role.M_TIER));
        clock.set(Instant.ofEpochSecond(iat + (exp - iat) / 2));
        LsvidHop.Extension renewed = reusing.forward(kept, reusing.idOf(Role.M_TIER));

        assertThat(exp - iat).isEqualTo(TimeRules.defaults(clock).lifetime().getSeconds());
        assertThat(young).isSameAs(first);
        assertThat(renewed).isNotSameAs(first);
        assertThat(renewed.document().token().payload().iat()).isEqualTo(iat + (exp - iat) / 2);
    }

    @Test
    void forwardWhenTheSvidRotatedThenANewExtensionIsSignedWithTheNewKey() {
        StaticX509Source source = TestIdentities.source(Role.SUBJECT_WL);
        LsvidHop reusing = hop(Role.SUBJECT_WL, source, MutableClock.at(Instant.now()), true);
        // the own base alone: its extension for m-tier is a whole document m-tier can verify
        Lsvid kept =
                Lsvid.of(reusing.start(reusing.idOf(Role.ASSERTING_WL)).token().nested());
        LsvidHop.Extension first = reusing.forward(kept, reusing.idOf(Role.M_TIER));

        source.rotate(TestIdentities.source(Role.SUBJECT_WL).getX509Svid());
        LsvidHop.Extension rotated = reusing.forward(kept, reusing.idOf(Role.M_TIER));

        assertThat(rotated).isNotSameAs(first);
        assertThat(rotated.document().token().payload().iss().id())
                .isNotEqualTo(first.document().token().payload().iss().id());
        // m-tier's presenter check needs the key of the connection's SVID, which is the new one
        Presenter now =
                new Presenter(reusing.self(), source.getX509Svid().getLeaf().getPublicKey());
        assertThat(mTier.verifier().verify(rotated.encoded(), mTier.self(), now, DelegationRule.ABSENT))
                .isNotNull();
        assertThatAssertion(() -> mTier.verifier().verify(first.encoded(), mTier.self(), now, DelegationRule.ABSENT))
                .hasCode(ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void forwardWhenNotReusingThenEveryForwardSignsANewExtension() {
        MutableClock clock = MutableClock.at(Instant.now());
        LsvidHop perRequest = hop(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL), clock, false);
        Lsvid kept = perRequest.start(perRequest.idOf(Role.ASSERTING_WL));

        LsvidHop.Extension first = perRequest.forward(kept, perRequest.idOf(Role.M_TIER));
        LsvidHop.Extension again = perRequest.forward(kept, perRequest.idOf(Role.M_TIER));

        assertThat(again).isNotSameAs(first);
        assertThat(again.document().token().signature())
                .isNotEqualTo(first.document().token().signature());
        assertThat(perRequest.reusedExtensions()).isZero();
    }

    /** The subject's request, checked and delegated by {@code delegator}, encoded. */
    private String delegatedBy(LsvidHop delegator) {
        Lsvid request = subject.start(delegator.self());
        if (delegator == asserting) {
            Presenter peer = new Presenter(
                    subject.self(), SUBJECT_SOURCE.getX509Svid().getLeaf().getPublicKey());
            asserting.verifier().verify(LsvidCodec.encode(request), asserting.self(), peer, DelegationRule.ABSENT);
        }
        return LsvidCodec.encode(delegator.delegate(request, subject.self(), "http://idp", "user0001", OAUTH_EXPIRY));
    }

    private static LsvidHop hop(Role role, StaticX509Source source) {
        return hop(role, source, Clock.systemUTC(), false);
    }

    private static LsvidHop hop(Role role, StaticX509Source source, Clock clock, boolean reuseExtensions) {
        return new LsvidHop(
                TestHops.parts(role, source, clock, TestHops.memos(clock, reuseExtensions), HopServices.standalone()),
                LsvidV1IssuerKeys.none());
    }
}
