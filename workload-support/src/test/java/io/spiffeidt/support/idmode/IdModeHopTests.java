package io.spiffeidt.support.idmode;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hop as the workloads use it, with SVIDs of one test CA: root, extension, and the checks. */
class IdModeHopTests {

    private static final StaticX509Source SUBJECT_SOURCE = TestIdentities.source(Role.SUBJECT_WL);

    private final IdModeHop asserting = TestHops.idModeAsserting(TestIdentities.source(Role.ASSERTING_WL));
    private final IdModeHop subject = hop(Role.SUBJECT_WL, SUBJECT_SOURCE);
    private final IdModeHop mTier = hop(Role.M_TIER, TestIdentities.source(Role.M_TIER));

    @Test
    void flowWhenRootExtendedThenNextHopVerifiesPathAndUser() {
        IdModePresentation root = mintFor(subject.self(), Instant.now().plusSeconds(600));
        VerifiedIdMode atSubject =
                subject.verifyAnswer(root.token(), root.artifacts().toJson());
        IdModePresentation extended = subject.extend(atSubject, mTier.self());

        VerifiedIdMode atMtier =
                mTier.verify(extended.token(), extended.artifacts().toJson(), presenter(SUBJECT_SOURCE, subject));

        assertThat(atMtier.depth()).isEqualTo(2);
        assertThat(atMtier.path()).containsExactly(asserting.self(), subject.self());
        assertThat(atMtier.result().delegation().dpr()).isEqualTo("user0001");
    }

    @Test
    void mintWhenOAuthTokenExpiresFirstThenRootEndsWithIt() {
        Instant oauthExpiry = Instant.now().plusSeconds(20).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

        IdModePresentation root = mintFor(subject.self(), oauthExpiry);

        assertThat(asserting.parse(root.token()).claims(0).expiresAt()).isEqualTo(oauthExpiry);
    }

    @Test
    void verifyWhenArtifactsMissingOrPresenterWrongThenRejected() {
        IdModePresentation root = mintFor(subject.self(), Instant.now().plusSeconds(600));
        IdModePresentation extended = subject.extend(
                subject.verifyAnswer(root.token(), root.artifacts().toJson()), mTier.self());

        assertThatAssertion(() -> mTier.verify(extended.token(), null, presenter(SUBJECT_SOURCE, subject)))
                .hasCode(ErrorCode.MALFORMED);
        // the right name with another workload's key
        StaticX509Source other = TestIdentities.source(Role.SUBJECT_WL);
        assertThatAssertion(() ->
                        mTier.verify(extended.token(), extended.artifacts().toJson(), presenter(other, subject)))
                .hasCode(ErrorCode.WRONG_PRESENTER);
        // addressed to m-tier, verified by the subject workload
        assertThatAssertion(() -> subject.verifyAnswer(
                        extended.token(), extended.artifacts().toJson()))
                .hasCode(ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void reuseWhenSameBundlesAndBeforeEarliestExpiryThenTheKeptAnswerElseEmpty() {
        IdModePresentation root = mintFor(subject.self(), Instant.now().plusSeconds(600));

        IdModeHop.KeptAnswer kept =
                subject.acceptToKeep(new Received(root.token(), root.artifacts().toJson()));

        assertThat(subject.reuse(kept)).containsSame(kept.verified());
        Instant earliest = asserting.parse(root.token()).claims(0).expiresAt();
        for (X509Certificate c : root.artifacts().chain(0)) {
            Instant notAfter = c.getNotAfter().toInstant();
            earliest = notAfter.isBefore(earliest) ? notAfter : earliest;
        }
        assertThat(kept.validUntil()).isEqualTo(earliest);
        TrustBundle own = kept.bundles().get(TestIdentities.TRUST_DOMAIN);
        assertThat(own).isNotNull();
        // past its time, under another bundle, or without any bundle: verify again
        Instant past = Instant.now().minusSeconds(1);
        assertThat(subject.reuse(new IdModeHop.KeptAnswer(kept.verified(), kept.bundles(), past)))
                .isEmpty();
        TrustBundle other = new TrustBundle(
                TestIdentities.TRUST_DOMAIN,
                List.of(SUBJECT_SOURCE.getX509Svid().getLeaf()));
        assertThat(subject.reuse(new IdModeHop.KeptAnswer(
                        kept.verified(), Map.of(TestIdentities.TRUST_DOMAIN, other), kept.validUntil())))
                .isEmpty();
        assertThat(subject.reuse(new IdModeHop.KeptAnswer(kept.verified(), Map.of(), kept.validUntil())))
                .isEmpty();
    }

    @Test
    void acceptToKeepWhenAddressedToAnotherWorkloadThenRejectedLikeVerifyAnswer() {
        IdModePresentation root = mintFor(mTier.self(), Instant.now().plusSeconds(600));

        assertThatAssertion(() -> subject.acceptToKeep(
                        new Received(root.token(), root.artifacts().toJson())))
                .hasCode(ErrorCode.WRONG_AUDIENCE);
    }

    private IdModePresentation mintFor(SpiffeId audience, Instant oauthExpiry) {
        return asserting
                .minting()
                .orElseThrow()
                .mint(new Grant(audience, "http://idp", "user0001", oauthExpiry))
                .document();
    }

    private static Presenter presenter(StaticX509Source source, IdModeHop as) {
        return new Presenter(as.self(), source.getX509Svid().getLeaf().getPublicKey());
    }

    private static IdModeHop hop(Role role, StaticX509Source source) {
        return new IdModeHop(TestHops.parts(role, source));
    }
}
