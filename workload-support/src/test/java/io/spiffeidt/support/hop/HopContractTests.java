package io.spiffeidt.support.hop;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The contract every mode's {@link Hop} keeps (docs/design.md "The hop contract"): what a hop
 * verifies and forwards, the next hop verifies, with the same delegation and one layer more; a
 * tampered document fails with the same code at every hop; and the verbs time their own work and
 * record the size of what they forward. Each mode's test extends this class with its hops, as
 * spring-security's sibling configurers share one base.
 *
 * @param <D> the mode's verified document
 */
abstract class HopContractTests<D> {

    /** The user every document here is minted for. */
    static final String DPA = "http://idp";

    static final String DPR = "user0001";

    final StaticX509Source subjectSource = TestIdentities.source(Role.SUBJECT_WL);
    final StaticX509Source mTierSource = TestIdentities.source(Role.M_TIER);
    final StaticX509Source targetSource = TestIdentities.source(Role.TARGET_WL);

    /** What the subject workload sends to the middle tier: a document minted and extended for it. */
    abstract Received fromSubject();

    /** The middle tier's hop of this mode, recording into and calling through {@code services}. */
    abstract Hop<D> mTier(HopServices services);

    /** The target's hop of this mode. */
    abstract Hop<D> target();

    /** Whether the mode has the introspection step. */
    abstract boolean introspects();

    private final Hop<D> mTier = mTier(HopServices.standalone());

    /** The middle tier's hop of this mode, its metrics into a private registry, no downstream. */
    Hop<D> mTier() {
        return mTier;
    }

    /** The code a document with one altered character near its end ({@link #tampered}) fails with. */
    abstract ErrorCode tamperedCode();

    /** What the asserting workload grants the subject workload. */
    static Grant grantToSubject() {
        return new Grant(
                TestHops.identity(Role.SUBJECT_WL, TestIdentities.source(Role.SUBJECT_WL))
                        .self(),
                DPA,
                DPR,
                Instant.now().plusSeconds(600));
    }

    /** The caller {@code role} as the mTLS peer of a request, on {@code source}. */
    static Caller caller(Role role, StaticX509Source source) {
        return new Caller(
                TestHops.identity(role, source).self(),
                source.getX509Svid().getLeaf(),
                source.getX509Svid().getLeaf().getPublicKey());
    }

    /**
     * One base64url character near the end of the token changed: in the outermost signature of an
     * ID-Mode or Anon-Mode token, in the JSON text of an LSVID.
     */
    static String tampered(String token) {
        int at = token.length() - 8;
        char c = token.charAt(at);
        return token.substring(0, at) + (c == 'A' ? 'B' : 'A') + token.substring(at + 1);
    }

    @Test
    void forwardWhenVerifiedThenTheNextHopVerifiesItWithTheSameDelegationAndOneLayerMore() {
        Verified<D> atMtier = mTier().verify(fromSubject(), caller(Role.SUBJECT_WL, subjectSource));
        Outgoing outgoing = mTier().forward(atMtier, Role.TARGET_WL);
        Verified<D> atTarget =
                target().verify(new Received(outgoing.token(), outgoing.artifacts()), caller(Role.M_TIER, mTierSource));

        assertThat(atMtier.delegation().dpa()).isEqualTo(DPA);
        assertThat(atMtier.delegation().dpr()).isEqualTo(DPR);
        assertThat(atTarget.delegation()).isEqualTo(atMtier.delegation());
        assertThat(outgoing.depth()).isEqualTo(atMtier.depth() + 1);
        assertThat(atTarget.depth()).isEqualTo(outgoing.depth());
    }

    @Test
    void verifyWhenTamperedThenEveryHopFailsWithTheSameCode() {
        Received sent = fromSubject();
        Verified<D> atMtier = mTier().verify(sent, caller(Role.SUBJECT_WL, subjectSource));
        Outgoing outgoing = mTier().forward(atMtier, Role.TARGET_WL);

        assertThatAssertion(() -> mTier().verify(
                                new Received(tampered(sent.token()), sent.artifacts()),
                                caller(Role.SUBJECT_WL, subjectSource)))
                .hasCode(tamperedCode());
        assertThatAssertion(() -> target().verify(
                                new Received(tampered(outgoing.token()), outgoing.artifacts()),
                                caller(Role.M_TIER, mTierSource)))
                .hasCode(tamperedCode());
    }

    @Test
    void verifyAndForwardWhenDoneThenTheHopTimesValidateAndExtendAndRecordsTheForwardedSize() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Hop<D> mTier = mTier(new HopServices(new OperationMetrics(registry), null, null));

        Verified<D> verified = mTier.verify(fromSubject(), caller(Role.SUBJECT_WL, subjectSource));
        Outgoing outgoing = mTier.forward(verified, Role.TARGET_WL);

        String mode = mTier.mode().pathSegment();
        assertThat(timer(registry, mode, "validate").count()).isEqualTo(1);
        assertThat(timer(registry, mode, "extend").count()).isEqualTo(1);
        DistributionSummary size = registry.find(OperationMetrics.DOCUMENT_SIZE)
                .tag("mode", mode)
                .tag("depth", Integer.toString(outgoing.depth()))
                .summary();
        assertThat(size).isNotNull();
        assertThat(size.count()).isEqualTo(1);
        assertThat(size.totalAmount()).isGreaterThanOrEqualTo(outgoing.token().length());
    }

    @Test
    void verifyWhenRejectedThenTheTimerRecordsTheCode() {
        MeterRegistry registry = new SimpleMeterRegistry();
        Hop<D> mTier = mTier(new HopServices(new OperationMetrics(registry), null, null));
        Received sent = fromSubject();

        assertThatAssertion(() -> mTier.verify(
                        new Received(tampered(sent.token()), sent.artifacts()), caller(Role.SUBJECT_WL, subjectSource)))
                .hasCode(tamperedCode());

        Timer rejected = registry.find(OperationMetrics.OPERATION_TIMER)
                .tag("mode", mTier.mode().pathSegment())
                .tag("operation", "validate")
                .tag("outcome", tamperedCode().name())
                .timer();
        assertThat(rejected).isNotNull();
        assertThat(rejected.count()).isEqualTo(1);
    }

    @Test
    void introspectionWhenTheModeHasItThenPresentAndElseAbsent() {
        assertThat(mTier().introspection().isPresent()).isEqualTo(introspects());
        assertThat(target().introspection().isPresent()).isEqualTo(introspects());
    }

    @Test
    void mintingWhenTheMiddleTierOrTheTargetThenAbsent() {
        // only the asserting workload's hop is given what it mints with
        assertThat(mTier().minting()).isEmpty();
        assertThat(target().minting()).isEmpty();
    }

    @Test
    void introspectionWhenTheHopHasNoClientThenNothingIsAccepted() {
        Received sent = fromSubject();
        Optional<Introspection<D>> introspection = mTier().introspection();

        // a hop without a client to the asserting workload never answers as if the root's binding
        // had been checked; a mode without the step offers none
        assertThat(introspection.isPresent()).isEqualTo(introspects());
        if (introspection.isPresent()) {
            assertThatThrownBy(() -> introspection.get().verify(sent, caller(Role.SUBJECT_WL, subjectSource)))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    private static Timer timer(MeterRegistry registry, String mode, String operation) {
        Timer timer = registry.find(OperationMetrics.OPERATION_TIMER)
                .tag("mode", mode)
                .tag("operation", operation)
                .tag("outcome", "success")
                .timer();
        assertThat(timer).as("%s timer of %s", operation, mode).isNotNull();
        return timer;
    }
}
