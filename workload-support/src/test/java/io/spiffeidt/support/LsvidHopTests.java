package io.spiffeidt.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
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
        assertThatThrownBy(() -> subject.verifyAnswer(forged, Role.ASSERTING_WL))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.DELEGATION_INVALID);
        assertThatThrownBy(() -> subject.verifyAnswer(forged, Role.M_TIER))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.DELEGATION_INVALID);
    }

    @Test
    void verifyAnswerWhenAttributedToAnotherRoleThenWrongPresenter() {
        assertThatThrownBy(() -> subject.verifyAnswer(delegatedBy(asserting), Role.M_TIER))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.WRONG_PRESENTER);
    }

    @Test
    void verifyAnswerWhenNoDelegationOrNoExtensionThenRejected() {
        Lsvid request = subject.start(subject.idOf(Role.ASSERTING_WL));
        String undelegated = LsvidCodec.encode(asserting.extend(request, subject.self()));
        String baseOnly =
                LsvidCodec.encode(Lsvid.of(request.token().payload().iss().id()));

        assertThatThrownBy(() -> subject.verifyAnswer(undelegated, Role.ASSERTING_WL))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.DELEGATION_INVALID);
        assertThatThrownBy(() -> subject.verifyAnswer(baseOnly, Role.ASSERTING_WL))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.MALFORMED);
        assertThatThrownBy(() -> subject.verifyAnswer("not an lsvid", Role.ASSERTING_WL))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.MALFORMED);
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
        WorkloadIdentity identity =
                new WorkloadIdentity(source, SpiffeIdtProperties.defaults(TestIdentities.TRUST_DOMAIN, role));
        return new LsvidHop(
                identity,
                new SignatureProvider(CryptoProviderChoice.BC),
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(Clock.systemUTC()),
                LsvidV1IssuerKeys.none());
    }
}
