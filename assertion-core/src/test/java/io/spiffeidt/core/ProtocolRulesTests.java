package io.spiffeidt.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.dvid.RemoteValidation;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.jws.CompactJws;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol rules the workloads take from the core rather than write themselves. */
class ProtocolRulesTests {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final TimeRules RULES = TimeRules.defaults(Clock.fixed(NOW, ZoneOffset.UTC));
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");

    private static String b64(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void delegationLifetimeWhenOAuthTokenOutlivesTheLifetimeThenLifetimeKept() {
        assertThat(RULES.forDelegationUntil(NOW.plusSeconds(3600)).lifetime()).isEqualTo(RULES.lifetime());
    }

    @Test
    void delegationLifetimeWhenOAuthTokenEndsFirstThenClampedToIt() {
        assertThat(RULES.forDelegationUntil(NOW.plusSeconds(20)).lifetime()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void delegationLifetimeWhenOAuthTokenHasNoSecondLeftThenExpired() {
        assertThatThrownBy(() -> RULES.forDelegationUntil(NOW.plusMillis(500)))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXPIRED));
    }

    @Test
    void delegationWhenItNamesAnotherUserThenDelegationInvalid() {
        Delegation delegation = new Delegation("https://idp", "user0001", "spiffe://example.org/asserting-wl");

        delegation.requireUser("https://idp", "user0001");
        assertThatThrownBy(() -> delegation.requireUser("https://idp", "user0002"))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DELEGATION_INVALID));
        assertThatThrownBy(() -> delegation.requireUser("https://other", "user0001"))
                .isInstanceOf(AssertionException.class);
    }

    @Test
    void anonModeHopWhenIidUnderStrictProfileThenRefusedAndUnderOriginalCompatibleAllowed() {
        assertThatThrownBy(() ->
                        AnonModeSettings.forHop(SUBJECT, VerificationProfile.STRICT, Limits.defaults(), RULES, true))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(AnonModeSettings.forHop(
                                SUBJECT, VerificationProfile.ORIGINAL_COMPATIBLE, Limits.defaults(), RULES, true)
                        .includeIid())
                .isTrue();
    }

    @Test
    void remoteValidationWhenSubIsNotTheSubjectWorkloadThenDelegationInvalid() {
        VerifiedResult result = new VerifiedResult(
                Mode.DVID,
                List.of(new LayerInfo("spiffe://example.org/asserting-wl", null, NOW, NOW.plusSeconds(60))),
                new Delegation("https://idp", "user0001", "spiffe://example.org/asserting-wl"),
                100,
                1);

        VerifiedDvid accepted = RemoteValidation.accept(result, "j1", SUBJECT.toString(), SUBJECT);

        assertThat(accepted.subject()).isEqualTo(SUBJECT);
        assertThat(accepted.dpr()).isEqualTo("user0001");
        assertThatThrownBy(() -> RemoteValidation.accept(result, "j1", "spiffe://example.org/m-tier", SUBJECT))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DELEGATION_INVALID));
    }

    @Test
    void compactJwsWhenWellFormedThenPartsDecoded() {
        CompactJws jws =
                CompactJws.parse(b64("{\"alg\":\"RS256\"}") + "." + b64("{\"sub\":\"a\",\"n\":null}") + ".c2ln");

        assertThat(jws.header()).containsEntry("alg", "RS256");
        assertThat(jws.payload()).containsEntry("sub", "a").containsKey("n");
        assertThat(jws.signature()).isEqualTo("sig".getBytes(StandardCharsets.US_ASCII));
        assertThat(jws.signingInput()).isEqualTo(b64("{\"alg\":\"RS256\"}") + "." + b64("{\"sub\":\"a\",\"n\":null}"));
    }

    @Test
    void compactJwsWhenNotThreeStrictSegmentsOrNotObjectsThenMalformed() {
        String header = b64("{\"alg\":\"RS256\"}");
        for (String bad : List.of(
                header + "." + b64("{}"),
                header + "." + b64("{}") + ".c2ln.x",
                header + "=." + b64("{}") + ".c2ln",
                header + "." + b64("[1]") + ".c2ln",
                header + "." + b64("{\"a\":1,\"a\":2}") + ".c2ln")) {
            assertThatThrownBy(() -> CompactJws.parse(bad))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            AssertionException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
        }
    }
}
