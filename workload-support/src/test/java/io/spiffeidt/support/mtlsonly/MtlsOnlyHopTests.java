package io.spiffeidt.support.mtlsonly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.HopServices;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import java.time.Clock;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

class MtlsOnlyHopTests {

    private static final String IDP = "https://idp.example";

    private final MtlsOnlyHop mTier = hop(Role.M_TIER);
    private final MtlsOnlyHop target = hop(Role.TARGET_WL);

    private static MtlsOnlyHop hop(Role role) {
        return new MtlsOnlyHop(TestHops.parts(role, TestIdentities.source(role)), Set.of(IDP));
    }

    private static Caller caller(Role role) {
        StaticX509Source source = TestIdentities.source(role);
        return new Caller(
                TestHops.identity(role, source).self(),
                source.getX509Svid().getLeaf(),
                source.getX509Svid().getLeaf().getPublicKey());
    }

    private static HttpHeaders header(String value) {
        HttpHeaders headers = new HttpHeaders();
        headers.add(MtlsOnlyHop.USER_HEADER, value);
        return headers;
    }

    private static void assertCode(ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(AssertionException.class, e -> assertThat(e.code())
                .isEqualTo(code));
    }

    @Test
    void verifyWhenHeaderOfAnAllowedIssuerThenTheCallerAssertsThatUserAndForwardRepeatsIt() {
        String value = MtlsOnlyHop.headerValue(IDP, "user0001");
        Received received = mTier.receive(new DocumentRequest(null, 5L, null), header(value));

        Verified<Delegation> verified = mTier.verify(received, caller(Role.SUBJECT_WL));

        assertThat(verified.delegation())
                .isEqualTo(new Delegation(IDP, "user0001", TestIdentities.id(Role.SUBJECT_WL)));
        assertThat(verified.result().outermost().issuer()).isEqualTo(TestIdentities.id(Role.SUBJECT_WL));
        assertThat(verified.result().outermost().audience()).isEqualTo(TestIdentities.id(Role.M_TIER));
        Outgoing onward = mTier.forward(verified, Role.TARGET_WL);
        assertThat(onward.headers()).containsExactly(java.util.Map.entry(MtlsOnlyHop.USER_HEADER, value));
        // the caller's word travels, no document
        assertThat(onward.headerDocumentCharacters()).isEqualTo(-1);
        assertThat(onward.request(5L).token()).isNull();
        assertThat(onward.request(5L).amount()).isEqualTo(5L);

        // the target takes m-tier's word for the same user: the weakness, asserted by m-tier
        Verified<Delegation> atTarget =
                target.verify(target.receive(DocumentRequest.of(null), header(value)), caller(Role.M_TIER));
        assertThat(atTarget.delegation().dpr()).isEqualTo("user0001");
        assertThat(atTarget.delegation().assertedBy()).isEqualTo(TestIdentities.id(Role.M_TIER));
    }

    @Test
    void verifyAndForwardWhenDoneThenValidateTimedAndTheRewrittenHeaderSizedWithoutAnExtend() {
        MeterRegistry registry = new SimpleMeterRegistry();
        MtlsOnlyHop timed = new MtlsOnlyHop(
                TestHops.parts(
                        Role.M_TIER,
                        TestIdentities.source(Role.M_TIER),
                        Clock.systemUTC(),
                        Memos.none(),
                        new HopServices(new OperationMetrics(registry), null, null)),
                Set.of(IDP));
        String value = MtlsOnlyHop.headerValue(IDP, "user0001");

        Outgoing onward = timed.forward(timed.verify(Received.of(value), caller(Role.SUBJECT_WL)), Role.TARGET_WL);

        Timer validate = registry.find(OperationMetrics.OPERATION_TIMER)
                .tag("mode", "mtls-only")
                .tag("operation", "validate")
                .timer();
        assertThat(validate).isNotNull();
        assertThat(validate.count()).isEqualTo(1);
        assertThat(registry.find(OperationMetrics.OPERATION_TIMER)
                        .tag("operation", "extend")
                        .timer())
                .isNull();
        DistributionSummary size = registry.find(OperationMetrics.DOCUMENT_SIZE)
                .tag("mode", "mtls-only")
                .tag("depth", "1")
                .summary();
        assertThat(size).isNotNull();
        assertThat(size.count()).isEqualTo(1);
        assertThat(size.totalAmount()).isEqualTo(onward.token().length());
    }

    @Test
    void receiveWhenHeaderMissingOrRepeatedOrBodyTokenThenMalformed() {
        String value = MtlsOnlyHop.headerValue(IDP, "user0001");
        HttpHeaders twice = header(value);
        twice.add(MtlsOnlyHop.USER_HEADER, value);

        for (ThrowingCallable call : new ThrowingCallable[] {
            () -> mTier.receive(DocumentRequest.of(null), new HttpHeaders()),
            () -> mTier.receive(DocumentRequest.of(null), twice),
            () -> mTier.receive(DocumentRequest.of("e30"), header(value))
        }) {
            assertCode(call, ErrorCode.MALFORMED);
        }
    }

    @Test
    void verifyWhenHeaderMalformedThenMalformed() {
        for (String bad : new String[] {
            "user0001",
            "sub=\"user0001\", iss=\"" + IDP + "\"",
            "iss=\"" + IDP + "\", sub=\"user0001\", x=1",
            "iss=\"" + IDP + "\", sub=\"\"",
            "iss=\"" + IDP + "\", sub=\"a\\\"b\"",
            "iss=\"" + IDP + "\", sub=\"" + "u".repeat(256) + "\"",
            "iss=\"" + IDP + "\",sub=\"user0001\""
        }) {
            assertThatThrownBy(() -> mTier.verify(Received.of(bad), caller(Role.SUBJECT_WL)))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
        }
    }

    @Test
    void verifyWhenIssuerNotAllowedThenUnknownIssuer() {
        Received other = Received.of(MtlsOnlyHop.headerValue("https://idp.attacker.example", "user0001"));

        assertCode(() -> mTier.verify(other, caller(Role.SUBJECT_WL)), ErrorCode.UNKNOWN_ISSUER);
    }

    @Test
    void headerValueWhenUserCannotBeWrittenThenMalformed() {
        assertCode(() -> MtlsOnlyHop.headerValue(IDP, "a\"b"), ErrorCode.MALFORMED);
        assertCode(() -> MtlsOnlyHop.headerValue(IDP, "a\\b"), ErrorCode.MALFORMED);
        assertCode(() -> MtlsOnlyHop.headerValue(IDP, ""), ErrorCode.MALFORMED);
        assertThat(MtlsOnlyHop.headerValue(IDP, "user 1")).isEqualTo("iss=\"" + IDP + "\", sub=\"user 1\"");
    }
}
