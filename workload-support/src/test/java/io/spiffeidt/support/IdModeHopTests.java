package io.spiffeidt.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The hop as the workloads use it, with SVIDs of one test CA: root, extension, and the checks. */
class IdModeHopTests {

    private static final StaticX509Source SUBJECT_SOURCE = TestIdentities.source(Role.SUBJECT_WL);

    private final IdModeHop asserting = hop(Role.ASSERTING_WL, TestIdentities.source(Role.ASSERTING_WL));
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
    void mintRootWhenOAuthTokenExpiresFirstThenRootEndsWithIt() {
        Instant oauthExpiry = Instant.now().plusSeconds(20).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

        IdModePresentation root = mintFor(subject.self(), oauthExpiry);

        assertThat(asserting.parse(root.token()).claims(0).expiresAt()).isEqualTo(oauthExpiry);
    }

    @Test
    void verifyWhenArtifactsMissingOrPresenterWrongThenRejected() {
        IdModePresentation root = mintFor(subject.self(), Instant.now().plusSeconds(600));
        IdModePresentation extended = subject.extend(
                subject.verifyAnswer(root.token(), root.artifacts().toJson()), mTier.self());

        assertThatThrownBy(() -> mTier.verify(extended.token(), null, presenter(SUBJECT_SOURCE, subject)))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.MALFORMED);
        // the right name with another workload's key
        StaticX509Source other = TestIdentities.source(Role.SUBJECT_WL);
        assertThatThrownBy(() ->
                        mTier.verify(extended.token(), extended.artifacts().toJson(), presenter(other, subject)))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.WRONG_PRESENTER);
        // addressed to m-tier, verified by the subject workload
        assertThatThrownBy(() -> subject.verifyAnswer(
                        extended.token(), extended.artifacts().toJson()))
                .isInstanceOf(AssertionException.class)
                .extracting(e -> ((AssertionException) e).code())
                .isEqualTo(ErrorCode.WRONG_AUDIENCE);
    }

    private IdModePresentation mintFor(SpiffeId audience, Instant oauthExpiry) {
        return asserting.mintRoot(audience, "http://idp", "user0001", oauthExpiry, Duration.ofMinutes(2));
    }

    private static Presenter presenter(StaticX509Source source, IdModeHop as) {
        return new Presenter(as.self(), source.getX509Svid().getLeaf().getPublicKey());
    }

    private static IdModeHop hop(Role role, StaticX509Source source) {
        WorkloadIdentity identity =
                new WorkloadIdentity(source, SpiffeIdtProperties.defaults(TestIdentities.TRUST_DOMAIN, role));
        return new IdModeHop(
                identity,
                new SignatureProvider(CryptoProviderChoice.BC),
                VerificationProfile.STRICT,
                Limits.defaults(),
                TimeRules.defaults(Clock.systemUTC()));
    }
}
