package io.spiffeidt.subject;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.RunningWorkload;
import io.spiffeidt.support.testing.StubWorkload;
import io.spiffeidt.support.testing.StubWorkload.Reply;
import io.spiffeidt.support.testing.TestHops;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.testing.TestOAuthIssuer;
import io.spiffeidt.support.warmup.StartupWarmUp;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.MintResponse;
import io.spiffeidt.support.wire.OAuthSummary;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The subject workload on its own: the real application (user JSON API on plain HTTP, SVID from a
 * development Workload API, a local OpenID provider), with the asserting workload and the middle
 * tier played by {@link StubWorkload}s that mint with, and check with, those tiers' hops.
 */
class SubjectWorkloadIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final AtomicReference<String> LAST_DVID = new AtomicReference<>();

    @TempDir
    static Path dir;

    private static TestOAuthIssuer idp;
    private static StubWorkload asserting;
    private static StubWorkload mTier;
    private static RunningWorkload subject;

    private static final IdModeHop ID_MODE_ASSERTING =
            TestHops.idModeAsserting(TestIdentities.source(Role.ASSERTING_WL));
    private static final IdModeHop ID_MODE_MTIER = TestHops.idMode(Role.M_TIER, TestIdentities.source(Role.M_TIER));

    @BeforeAll
    static void start() throws Exception {
        idp = new TestOAuthIssuer();
        asserting = new StubWorkload(TestIdentities.source(Role.ASSERTING_WL))
                .on("/id-mode/mint", r -> Reply.ok(JSON.writeValueAsString(idModeRoot(r))))
                .on("/dvid/mint", r -> Reply.ok(JSON.writeValueAsString(dvid(r))));
        mTier = new StubWorkload(TestIdentities.source(Role.M_TIER))
                .on("/id-mode/balance", SubjectWorkloadIT::checkIdModeAtMtier)
                .on(
                        "/dvid/balance",
                        r -> Reply.ok(JSON.writeValueAsString(new AccountResponse("user", 11, "dvid", List.of()))));
        subject = RunningWorkload.start(
                SubjectWorkloadApplication.class,
                Role.SUBJECT_WL,
                dir,
                Map.of(
                        "spiffeidt.oauth.issuers[0].issuer", idp.issuer(),
                        "spiffeidt.oauth.issuers[0].audience", "spiffeidt",
                        "spiffeidt.endpoints.asserting-wl", asserting.uri().toString(),
                        "spiffeidt.endpoints.m-tier", mTier.uri().toString(),
                        "spiffeidt.warm-up.requests", "200"));
        // read before any test calls: what the warm-up alone left behind
        downstreamCallsAfterStart =
                asserting.received().size() + mTier.received().size();
        sessionsAfterStart = subject.meters()
                .get("tomcat.sessions.created")
                .functionCounter()
                .count();
    }

    private static int downstreamCallsAfterStart;
    private static double sessionsAfterStart;

    @Test
    void warmUpWhenSetThenTheUserApiRefusedEveryCallWithoutATokenAndNothingWentDownstream() {
        StartupWarmUp.Result warmUp =
                subject.context().getBean(StartupWarmUp.class).result().orElseThrow();

        assertThat(warmUp.paths())
                .containsExactly(
                        "/api/dvid/balance", "/api/id-mode/balance", "/api/anon-mode/balance", "/api/lsvid/balance");
        assertThat(warmUp.answers()).isEqualTo(Map.of(401, 200));
        assertThat(warmUp.stopped()).isEmpty();
        // refused before any flow: no call downstream, no HTTP session
        assertThat(downstreamCallsAfterStart).isZero();
        assertThat(sessionsAfterStart).isZero();
    }

    @AfterAll
    static void stop() {
        if (subject != null) {
            subject.close();
        }
        asserting.close();
        mTier.close();
        idp.close();
    }

    private static String user(StubWorkload.Received request) {
        AccessTokenRequest body = JSON.readValue(request.body(), AccessTokenRequest.class);
        return (String) CompactJws.parse(body.accessToken()).payload().get("sub");
    }

    /** The asserting workload's answer: a root for the calling workload, naming the token's user. */
    private static MintResponse idModeRoot(StubWorkload.Received request) {
        IdModePresentation root = ID_MODE_ASSERTING
                .minting()
                .orElseThrow()
                .mint(new Grant(
                        request.peer(),
                        idp.issuer(),
                        user(request),
                        Instant.now().plusSeconds(300)))
                .document();
        return new MintResponse(
                root.token(), root.artifacts().toJson(), new OAuthSummary(idp.issuer(), user(request), null));
    }

    /** A DVID-shaped answer; the subject workload only reads it and forwards it unchanged. */
    private static MintResponse dvid(StubWorkload.Received request) {
        String header = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8));
        String payload = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(("{\"sub\":\"" + request.peer() + "\",\"dpr\":\"" + user(request) + "\",\"exp\":"
                                + Instant.now().plusSeconds(120).getEpochSecond() + "}")
                        .getBytes(StandardCharsets.UTF_8));
        String token = header + "." + payload + ".c2ln";
        LAST_DVID.set(token);
        return new MintResponse(token, null, null);
    }

    /** The middle tier's check: the whole ID-Mode chain, presented by the subject workload. */
    private static Reply checkIdModeAtMtier(StubWorkload.Received request) {
        DocumentRequest document = JSON.readValue(request.body(), DocumentRequest.class);
        try {
            VerifiedIdMode verified = ID_MODE_MTIER
                    .verify(
                            new Received(document.token(), document.artifacts()),
                            new Caller(
                                    request.peer(),
                                    request.peerLeaf(),
                                    request.peerLeaf().getPublicKey()))
                    .document();
            return Reply.ok(JSON.writeValueAsString(
                    new AccountResponse(verified.result().delegation().dpr(), 5, "id-mode", List.of())));
        } catch (AssertionException e) {
            return new Reply(401, "{\"code\":\"" + e.code().name() + "\"}");
        }
    }

    private static HttpResponse<String> user(String mode, String operation, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(subjectUri().resolve("/api/" + mode + "/" + operation))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI subjectUri() {
        return URI.create(subject.uri().toString().replace("https://", "http://"));
    }

    private static long count(String mode, String operation) {
        Timer timer = subject.meters()
                .find(OperationMetrics.OPERATION_TIMER)
                .tags("mode", mode, "operation", operation, "outcome", "success")
                .timer();
        return timer == null ? 0 : timer.count();
    }

    private static long received(StubWorkload stub, String path) {
        return stub.received().stream().filter(r -> r.path().equals(path)).count();
    }

    @Test
    void idModeWhenUserAsksTwiceThenOneRootMintedAndEveryExtensionVerifiesAtTheMiddleTier() throws Exception {
        String token = idp.token("user0001");
        long mintsBefore = received(asserting, "/id-mode/mint");

        HttpResponse<String> first = user("id-mode", "balance", token);
        HttpResponse<String> second = user("id-mode", "balance", token);

        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(second.body());
        assertThat(body.get("user").asString()).isEqualTo("user0001");
        assertThat(JSON.readTree(first.body()).get("minted").asBoolean()).isTrue();
        assertThat(body.get("minted").asBoolean()).isFalse();
        assertThat(received(asserting, "/id-mode/mint")).isEqualTo(mintsBefore + 1);
        assertThat(mTier.received())
                .allSatisfy(r -> assertThat(r.peer().toString()).isEqualTo(TestIdentities.id(Role.SUBJECT_WL)));
        assertThat(count("id-mode", "mint_call")).isPositive();
        assertThat(count("id-mode", "validate")).isPositive();
        assertThat(count("id-mode", "extend")).isGreaterThanOrEqualTo(2);
        assertThat(count("id-mode", "mtier_call")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void dvidWhenUserAsksThenTheMintedDvidIsForwardedUnchanged() throws Exception {
        HttpResponse<String> answer = user("dvid", "balance", idp.token("user0002"));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(JSON.readTree(answer.body()).get("balance").asLong()).isEqualTo(11);
        StubWorkload.Received forwarded = mTier.received().stream()
                .filter(r -> r.path().equals("/dvid/balance"))
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(LAST_DVID.get()).isNotNull();
        assertThat(JSON.readValue(forwarded.body(), DocumentRequest.class).token())
                .isEqualTo(LAST_DVID.get());
        assertThat(forwarded.peer().toString()).isEqualTo(TestIdentities.id(Role.SUBJECT_WL));
    }

    @Test
    void userApiWhenNoBearerOrUnknownModeOrForeignIssuerThenRefusedWithoutCallingAnyone() throws Exception {
        int calls = asserting.received().size() + mTier.received().size();
        try (TestOAuthIssuer stranger = new TestOAuthIssuer()) {
            HttpResponse<String> foreign = user("id-mode", "mint", stranger.token("user0003"));

            assertThat(foreign.statusCode()).isBetween(400, 499);
            assertThat(JSON.readTree(foreign.body()).get("code").asString()).isEqualTo("UNKNOWN_ISSUER");
        }
        assertThat(user("id-mode", "mint", null).statusCode()).isEqualTo(401);
        assertThat(user("nope", "mint", idp.token("user0003")).statusCode()).isEqualTo(404);
        assertThat(asserting.received().size() + mTier.received().size()).isEqualTo(calls);
    }
}
