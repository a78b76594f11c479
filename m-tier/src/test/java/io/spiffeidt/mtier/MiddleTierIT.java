package io.spiffeidt.mtier;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.RunningWorkload;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.StubWorkload;
import io.spiffeidt.support.testing.StubWorkload.Reply;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The middle tier on its own: the real application with its SVID from a development Workload API,
 * called over SPIFFE mTLS as the subject workload would, with the asserting and target workloads
 * played by {@link StubWorkload}s. Documents are made and checked with the hops of the other tiers.
 */
class MiddleTierIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ACCOUNT = "{\"user\":\"user0001\",\"balance\":7,\"mode\":\"%s\",\"path\":[]}";

    private static final StaticX509Source SUBJECT = SubjectDocuments.SUBJECT;
    private static final StaticX509Source ASSERTING = SubjectDocuments.ASSERTING;

    @TempDir
    static Path dir;

    private static StubWorkload target;
    private static StubWorkload asserting;
    private static RunningWorkload mTier;

    private final SubjectDocuments documents = new SubjectDocuments();
    private final IdModeHop idModeTarget = TestHops.idMode(Role.TARGET_WL, TestIdentities.source(Role.TARGET_WL));
    private final AnonModeHop anonTarget = TestHops.anonMode(Role.TARGET_WL, TestIdentities.source(Role.TARGET_WL));
    private final LsvidHop lsvidTarget = TestHops.lsvid(Role.TARGET_WL, TestIdentities.source(Role.TARGET_WL));

    @BeforeAll
    static void start() throws Exception {
        target = new StubWorkload(TestIdentities.source(Role.TARGET_WL));
        for (Mode mode : Mode.values()) {
            target.on("/" + mode.pathSegment() + "/balance", r -> Reply.ok(ACCOUNT.formatted(mode.pathSegment())));
        }
        asserting = new StubWorkload(ASSERTING)
                .on(
                        "/dvid/validate",
                        r -> Reply.ok(JSON.writeValueAsString(
                                r.body().contains(NO_INTROSPECTION) ? subjectsDvid() : otherSubjectsDvid())))
                .on("/dvid/introspect", r -> new Reply(404, "{\"code\":\"NOT_FOUND\"}"));
        mTier = RunningWorkload.start(
                MiddleTierApplication.class,
                Role.M_TIER,
                dir,
                Map.of(
                        "spiffeidt.endpoints.target-wl", target.uri().toString(),
                        "spiffeidt.endpoints.asserting-wl", asserting.uri().toString(),
                        "spiffeidt.pooling.profile", "pooled"));
    }

    @AfterAll
    static void stop() {
        if (mTier != null) {
            mTier.close();
        }
        target.close();
        asserting.close();
    }

    /** A DVID text for which the stub asserting workload validates without the introspection asked for. */
    private static final String NO_INTROSPECTION = "no.introspection.dvid";

    /** A remote validation answer for a DVID of the subject workload, without an introspection. */
    private static ValidateResponse subjectsDvid() {
        return new ValidateResponse(otherSubjectsDvid().result(), TestIdentities.id(Role.SUBJECT_WL), "jti-2", null);
    }

    /** A remote validation answer for a DVID whose {@code sub} is not the subject workload. */
    private static ValidateResponse otherSubjectsDvid() {
        VerifiedResult result = new VerifiedResult(
                Mode.DVID,
                List.of(new LayerInfo(TestIdentities.id(Role.ASSERTING_WL), null, Instant.now(), Instant.now())),
                new Delegation("https://idp.example", "user0001", TestIdentities.id(Role.ASSERTING_WL)),
                100,
                1);
        return new ValidateResponse(result, TestIdentities.id(Role.TARGET_WL), "jti-1");
    }

    private static HttpResponse<String> present(Role caller, String path, DocumentRequest request) throws Exception {
        StaticX509Source source = caller == Role.SUBJECT_WL ? SUBJECT : TestIdentities.source(caller);
        return mTier.post(source, path, JSON.writeValueAsString(request));
    }

    private static List<StubWorkload.Received> forwarded(String path) {
        return target.received().stream().filter(r -> r.path().equals(path)).toList();
    }

    /** Every outcome's count of the operation timer. */
    private static double count(String mode, String operation) {
        MeterRegistry meters = mTier.meters();
        return meters
                .find(OperationMetrics.OPERATION_TIMER)
                .tags("mode", mode, "operation", operation)
                .timers()
                .stream()
                .mapToLong(Timer::count)
                .sum();
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    @Test
    void idModeWhenSubjectPresentsItsExtensionThenTargetGetsOneLayerMoreFromTheMiddleTier() throws Exception {
        DocumentRequest extended = documents.idMode("user0001");
        int before = forwarded("/id-mode/balance").size();

        HttpResponse<String> answer = present(Role.SUBJECT_WL, "/id-mode/balance", extended);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(json(answer).get("balance").asLong()).isEqualTo(7);
        List<StubWorkload.Received> sent = forwarded("/id-mode/balance");
        assertThat(sent).hasSize(before + 1);
        StubWorkload.Received last = sent.get(sent.size() - 1);
        assertThat(last.peer().toString()).isEqualTo(TestIdentities.id(Role.M_TIER));
        DocumentRequest onward = JSON.readValue(last.body(), DocumentRequest.class);
        VerifiedIdMode atTarget = idModeTarget
                .verify(
                        new Received(onward.token(), onward.artifacts()),
                        new Caller(last.peer(), last.peerLeaf(), last.peerLeaf().getPublicKey()))
                .document();
        assertThat(atTarget.depth()).isEqualTo(3);
        assertThat(atTarget.path())
                .extracting(Object::toString)
                .containsExactly(
                        TestIdentities.id(Role.ASSERTING_WL),
                        TestIdentities.id(Role.SUBJECT_WL),
                        TestIdentities.id(Role.M_TIER));
        assertThat(atTarget.result().delegation().dpr()).isEqualTo("user0001");
    }

    @Test
    void idModeWhenTokenTamperedOrCallerNotTheSubjectThenRejectedAndNothingForwarded() throws Exception {
        DocumentRequest extended = documents.idMode("user0002");
        int before = target.received().size();

        HttpResponse<String> answer = present(
                Role.SUBJECT_WL,
                "/id-mode/balance",
                new DocumentRequest(extended.token().replace('A', 'B'), null, extended.artifacts()));
        HttpResponse<String> wrongCaller = present(Role.ASSERTING_WL, "/id-mode/balance", extended);

        assertThat(answer.statusCode()).isBetween(400, 499);
        assertThat(json(answer).has("code")).isTrue();
        assertThat(wrongCaller.statusCode()).isEqualTo(403);
        assertThat(target.received()).hasSize(before);
    }

    @Test
    void anonModeWhenSubjectPresentsItsExtensionThenTargetGetsAnotherAnonymousLayer() throws Exception {
        SubjectDocuments.AnonPair pair = documents.anonMode("user0003");
        String extended = pair.extended();

        HttpResponse<String> answer = present(Role.SUBJECT_WL, "/anon-mode/balance", DocumentRequest.of(extended));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        List<StubWorkload.Received> sent = forwarded("/anon-mode/balance");
        DocumentRequest onward = JSON.readValue(sent.get(sent.size() - 1).body(), DocumentRequest.class);
        VerifiedResult atTarget = anonTarget.accept(Received.of(onward.token())).result();
        assertThat(atTarget.depth()).isEqualTo(3);
        assertThat(atTarget.delegation().dpr()).isEqualTo("user0003");
        assertThat(anonTarget.verifier().hopIdentities(onward.token()))
                .hasSize(2)
                .allMatch(Optional::isEmpty);
        assertThat(anonTarget.verifier().rootIdentifier(onward.token()))
                .isEqualTo(anonTarget.verifier().rootIdentifier(pair.root()));
    }

    @Test
    void lsvidWhenSubjectPresentsItsExtensionThenTargetVerifiesTheMiddleTierAsPresenter() throws Exception {
        Lsvid extended = documents.lsvid("user0004");

        HttpResponse<String> answer =
                present(Role.SUBJECT_WL, "/lsvid/balance", DocumentRequest.of(LsvidCodec.encode(extended)));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        List<StubWorkload.Received> sent = forwarded("/lsvid/balance");
        StubWorkload.Received last = sent.get(sent.size() - 1);
        DocumentRequest onward = JSON.readValue(last.body(), DocumentRequest.class);
        LsvidVerification atTarget = lsvidTarget
                .verifier()
                .verify(onward.token(), lsvidTarget.self(), Presenter.of(last.peerLeaf()), DelegationRule.REQUIRED);
        assertThat(atTarget.delegation().dpr()).isEqualTo("user0004");
        assertThat(atTarget.document().depth()).isEqualTo(extended.depth() + 1);
    }

    @Test
    void dvidWhenPooledAndTheValidationAnswerLacksTheIntrospectionThenRefusedAndTargetNeverCalled() throws Exception {
        int before = forwarded("/dvid/balance").size();

        HttpResponse<String> answer = present(Role.SUBJECT_WL, "/dvid/balance", DocumentRequest.of(NO_INTROSPECTION));

        assertThat(answer.statusCode()).as(answer.body()).isBetween(400, 599);
        assertThat(json(answer).get("code").asString()).isEqualTo("MALFORMED");
        assertThat(forwarded("/dvid/balance")).hasSize(before);
        // under pooled the introspection was asked for in the validation request, and not called apart
        StubWorkload.Received sent = asserting.received().stream()
                .filter(r -> r.path().equals("/dvid/validate") && r.body().contains(NO_INTROSPECTION))
                .reduce((first, second) -> second)
                .orElseThrow();
        assertThat(JSON.readTree(sent.body()).get("introspect").asBoolean()).isTrue();
        assertThat(asserting.received().stream().filter(r -> r.path().equals("/dvid/introspect")))
                .isEmpty();
    }

    @Test
    void dvidWhenAssertingValidatesADvidOfAnotherSubjectThenDelegationInvalidAndTargetNeverCalled() throws Exception {
        int before = forwarded("/dvid/balance").size();
        double validated = count("dvid", "validate");
        double validateCalls = count("dvid", "validate_call");

        HttpResponse<String> answer = present(Role.SUBJECT_WL, "/dvid/balance", DocumentRequest.of("a.b.c"));

        assertThat(answer.statusCode()).isEqualTo(403);
        assertThat(json(answer).get("code").asString()).isEqualTo("DELEGATION_INVALID");
        assertThat(forwarded("/dvid/balance")).hasSize(before);
        // the downstream call and the local check are two operations
        assertThat(count("dvid", "validate_call")).isEqualTo(validateCalls + 1);
        assertThat(count("dvid", "validate")).isEqualTo(validated + 1);
        assertThat(mTier.meters()
                        .find(OperationMetrics.OPERATION_TIMER)
                        .tags("mode", "dvid", "operation", "validate", "outcome", "DELEGATION_INVALID")
                        .timer())
                .isNotNull();
    }

    @Test
    void poolingWhenPooledProfileThenRequestsToTheTargetShareOneHandshake() throws Exception {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> answer = present(
                    Role.SUBJECT_WL,
                    "/anon-mode/balance",
                    DocumentRequest.of(documents.anonMode("user0005").extended()));
            assertThat(answer.statusCode()).isEqualTo(200);
        }

        var handshakes = mTier.meters()
                .find(OperationMetrics.CLIENT_HANDSHAKES)
                .tags("downstream", "target-wl", "pooling", "pooled")
                .counter();
        assertThat(handshakes).isNotNull();
        assertThat(handshakes.count()).isEqualTo(1);
    }
}
