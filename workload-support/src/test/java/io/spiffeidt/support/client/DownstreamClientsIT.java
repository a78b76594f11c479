package io.spiffeidt.support.client;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.SvidPin;
import io.spiffeidt.support.identity.X509SourceFactory;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.problem.ProblemDetailsAdvice;
import io.spiffeidt.support.testapp.TestController;
import io.spiffeidt.support.testapp.TestWorkloadApplication;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.wire.DocumentRequest;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.web.client.RestClient;

@SpringBootTest(
        classes = TestWorkloadApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spiffeidt.workload=target-wl",
            "management.server.port=0",
            "management.endpoints.web.exposure.include=health,prometheus"
        })
class DownstreamClientsIT {

    @LocalServerPort
    int port;

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final List<StaticX509Source> opened = Collections.synchronizedList(new ArrayList<>());
    private final List<DownstreamClients> toClose = new ArrayList<>();
    /** The long-lived source of the clients made last. */
    private StaticX509Source longLived;

    @AfterEach
    void closeClients() {
        toClose.forEach(DownstreamClients::close);
    }

    private DownstreamClients clients(
            PoolingProfile profile, Map<String, ConnectionStrategy> overrides, Map<Role, String> ids, int targetPort) {
        IdentityProperties identity = new IdentityProperties(
                TestIdentities.TRUST_DOMAIN,
                Role.M_TIER,
                ids,
                Map.of(Role.TARGET_WL, URI.create("https://127.0.0.1:" + targetPort)),
                IdentityProperties.defaults(TestIdentities.TRUST_DOMAIN, Role.M_TIER)
                        .workloadApi());
        PoolingProperties pooling = new PoolingProperties(
                profile, overrides, Duration.ofSeconds(2), Duration.ofSeconds(10), 8, Duration.ofSeconds(2));
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
        StaticX509Source source = TestIdentities.source(Role.M_TIER);
        longLived = source;
        // like an agent, a fresh source serves the SVID the workload holds now
        X509SourceFactory fresh = () -> {
            StaticX509Source opening = new StaticX509Source(source.getX509Svid(), TestIdentities.PKI.bundle());
            opened.add(opening);
            return opening;
        };
        DownstreamClients clients = new DownstreamClients(
                identity,
                pooling,
                source,
                fresh,
                RestClient.builder().observationRegistry(observations),
                new OperationMetrics(registry));
        toClose.add(clients);
        return clients;
    }

    private DownstreamClient client(ConnectionStrategy strategy) {
        return clients(
                        PoolingProfile.THESIS,
                        Map.of(PoolingTable.overrideKey(Mode.ID_MODE, Role.TARGET_WL), strategy),
                        Map.of(),
                        port)
                .client(Mode.ID_MODE, Role.TARGET_WL);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> echo(DownstreamClient client, int i) {
        return client.post("/test/echo", Map.of("i", i), Map.class);
    }

    private static Set<Object> remotePorts(DownstreamClient client, int calls) {
        List<Map<String, Object>> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            answers.add(echo(client, i));
        }
        for (int i = 0; i < calls; i++) {
            assertThat(answers.get(i).get("caller")).isEqualTo(TestIdentities.id(Role.M_TIER));
            assertThat(answers.get(i).get("body")).isEqualTo(Map.of("i", i));
        }
        return answers.stream().map(a -> a.get("remotePort")).collect(Collectors.toSet());
    }

    /** The completed TLS handshakes the clients counted towards target-wl under {@code strategy}. */
    private double handshakes(ConnectionStrategy strategy) {
        Counter counter = registry.find(OperationMetrics.CLIENT_HANDSHAKES)
                .tags("downstream", Role.TARGET_WL.workloadName(), "pooling", strategy.tagValue())
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void verifyWhenPooledThenOneConnectionAndOneHandshakeServeEveryRequest() {
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        assertThat(client.strategy()).isEqualTo(ConnectionStrategy.POOLED);
        assertThat(remotePorts(client, 4)).hasSize(1);
        assertThat(handshakes(ConnectionStrategy.POOLED)).isEqualTo(1);
    }

    @Test
    void verifyWhenPostingThenWholeBodySentWithContentLength() {
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        Map<String, Object> answer = echo(client, 7);

        // a chunked body ends in a separate write the server must wait for: one more wake-up per hop
        assertThat(answer.get("transferEncoding")).isEqualTo("null");
        assertThat(((Number) answer.get("contentLength")).longValue()).isEqualTo("{\"i\":7}".length());
    }

    @Test
    void verifyWhenPooledAndHundredsOfRequestsThenStillOneConnectionAndOneHandshake() {
        // Tomcat's default closes a kept-alive connection after 100 requests; the mTLS connector lifts it
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        assertThat(remotePorts(client, 250)).hasSize(1);
        assertThat(handshakes(ConnectionStrategy.POOLED)).isEqualTo(1);
    }

    @Test
    void verifyWhenNonPooledThenNewConnectionAndHandshakePerRequest() {
        DownstreamClient client = client(ConnectionStrategy.NON_POOLED);

        assertThat(client.strategy()).isEqualTo(ConnectionStrategy.NON_POOLED);
        assertThat(remotePorts(client, 4)).hasSize(4);
        assertThat(handshakes(ConnectionStrategy.NON_POOLED)).isEqualTo(4);
        assertThat(opened).isEmpty();
    }

    @Test
    void verifyWhenFreshSourceThenNewConnectionAndSourcePerRequestAndSourcesClosed() {
        DownstreamClient client = client(ConnectionStrategy.NON_POOLED_FRESH_SOURCE);

        assertThat(remotePorts(client, 3)).hasSize(3);
        assertThat(handshakes(ConnectionStrategy.NON_POOLED_FRESH_SOURCE)).isEqualTo(3);
        assertThat(opened).hasSize(3).allSatisfy(source -> assertThat(source.isClosed())
                .isTrue());
        assertThat(registry.get(OperationMetrics.OPERATION_TIMER)
                        .tags("mode", "id-mode", "operation", "mtls_client_setup", "outcome", "success")
                        .timer()
                        .count())
                .isEqualTo(3);
    }

    private static String serial(X509Svid svid) {
        return svid.getLeaf().getSerialNumber().toString(16);
    }

    private void rotate() {
        longLived.rotate(TestIdentities.PKI.issue(TestIdentities.id(Role.M_TIER)));
    }

    @ParameterizedTest
    @EnumSource(ConnectionStrategy.class)
    void verifyWhenSvidRotatesAfterTheRequestReadItThenTheCallPresentsTheSvidTheRequestRead(
            ConnectionStrategy strategy) {
        DownstreamClient client = client(strategy);
        X509Svid pinned;
        Map<String, Object> during;
        try (SvidPin.Scope scope = SvidPin.open()) {
            pinned = SvidPin.svid(longLived); // what a hop signs its layer with
            rotate();
            during = echo(client, 0);
        }
        Map<String, Object> after = echo(client, 1);

        assertThat(during.get("leafSerial")).isEqualTo(serial(pinned));
        assertThat(after.get("leafSerial"))
                .isEqualTo(serial(longLived.getX509Svid()))
                .isNotEqualTo(serial(pinned));
    }

    @Test
    void verifyWhenPooledAndSvidRotatesThenARequestPinnedToTheOldSvidKeepsItsConnection() throws Exception {
        DownstreamClient client = client(ConnectionStrategy.POOLED);
        Object firstPort = echo(client, 0).get("remotePort");
        ExecutorService otherRequests = Executors.newSingleThreadExecutor();
        try (SvidPin.Scope scope = SvidPin.open()) {
            X509Svid pinned = SvidPin.svid(longLived);
            rotate();
            Map<String, Object> other =
                    otherRequests.submit(() -> echo(client, 1)).get();
            Map<String, Object> mine = echo(client, 2);

            assertThat(other.get("leafSerial")).isEqualTo(serial(longLived.getX509Svid()));
            assertThat(mine.get("leafSerial")).isEqualTo(serial(pinned));
            assertThat(mine.get("remotePort")).isEqualTo(firstPort);
            assertThat(handshakes(ConnectionStrategy.POOLED)).isEqualTo(2);

            // a second rotation closes the pool of the pinned SVID: its call gets a connection of its own
            rotate();
            Map<String, Object> newest =
                    otherRequests.submit(() -> echo(client, 3)).get();
            Map<String, Object> once = echo(client, 4);
            Map<String, Object> newestAgain =
                    otherRequests.submit(() -> echo(client, 5)).get();

            assertThat(once.get("leafSerial")).isEqualTo(serial(pinned));
            assertThat(once.get("remotePort")).isNotEqualTo(firstPort);
            assertThat(newest.get("leafSerial")).isEqualTo(serial(longLived.getX509Svid()));
            assertThat(newestAgain.get("remotePort")).isEqualTo(newest.get("remotePort"));
            assertThat(handshakes(ConnectionStrategy.POOLED)).isEqualTo(4);
        } finally {
            otherRequests.shutdownNow();
        }
    }

    @Test
    void verifyWhenPoolOfACallInFlightIsDroppedThenTheCallCompletes() throws Exception {
        DownstreamClient client = client(ConnectionStrategy.POOLED);
        TestController.entered = new CountDownLatch(1);
        TestController.release = new CountDownLatch(1);
        ExecutorService requests = Executors.newFixedThreadPool(2);
        try {
            X509Svid first = longLived.getX509Svid();
            Future<Map<String, Object>> held = requests.submit(() -> {
                try (SvidPin.Scope scope = SvidPin.open()) {
                    return client.post("/test/hold", Map.of(), Map.class);
                }
            });
            assertThat(TestController.entered.await(10, TimeUnit.SECONDS)).isTrue();
            // two rotations: the first SVID's pool is dropped while its call waits for the answer
            rotate();
            echo(client, 1);
            rotate();
            echo(client, 2);
            TestController.release.countDown();

            Map<String, Object> answer = held.get(10, TimeUnit.SECONDS);
            assertThat(answer.get("released")).isEqualTo(true);
            assertThat(answer.get("leafSerial")).isEqualTo(serial(first));
        } finally {
            TestController.release.countDown();
            requests.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(ConnectionStrategy.class)
    void verifyWhenServerIsNotTheConfiguredIdThenUpstreamUnavailable(ConnectionStrategy strategy) {
        DownstreamClient client = clients(
                        PoolingProfile.THESIS,
                        Map.of(PoolingTable.overrideKey(Mode.LSVID, Role.TARGET_WL), strategy),
                        Map.of(Role.TARGET_WL, "spiffe://example.org/impostor-check"),
                        port)
                .client(Mode.LSVID, Role.TARGET_WL);

        assertThatAssertion(() -> echo(client, 0)).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @ParameterizedTest
    @EnumSource(
            value = ErrorCode.class,
            names = {"WRONG_AUDIENCE", "BAD_SIGNATURE", "NOT_FOUND", "MALFORMED", "UPSTREAM_UNAVAILABLE"})
    void verifyWhenDownstreamAnswersCodeThenSameCodeRelayed(ErrorCode code) {
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        assertThatAssertion(() -> client.post("/test/fail", Map.of("code", code.name()), Map.class))
                .hasMessageContaining("target-wl answered " + code.name())
                .hasCode(code);
    }

    private DistributionSummary bytes(String direction) {
        return registry.find(OperationMetrics.CLIENT_BYTES)
                .tags("mode", "id-mode", "downstream", "target-wl", "endpoint", "/test/echo", "direction", direction)
                .summary();
    }

    @ParameterizedTest
    @EnumSource(
            value = ConnectionStrategy.class,
            names = {"POOLED", "NON_POOLED"})
    void verifyWhenCallsShareOrNotAConnectionThenEachCountsItsOwnBytesOnTheWire(ConnectionStrategy strategy) {
        DownstreamClient client = client(strategy);
        String token = "t".repeat(100_000);
        int body = ("{\"token\":\"" + token + "\",\"amount\":5,\"artifacts\":\"abc\"}").length();

        for (int i = 0; i < 3; i++) {
            client.post("/test/echo", new DocumentRequest(token, 5L, "abc"), Map.class);
        }

        DistributionSummary sent = bytes("sent");
        DistributionSummary received = bytes("received");
        assertThat(sent.count()).isEqualTo(3);
        assertThat(received.count()).isEqualTo(3);
        // the body and a head of a few hundred bytes, never the earlier calls of a pooled connection
        assertThat(sent.totalAmount()).isGreaterThan(3.0 * (body + 100));
        assertThat(sent.max()).isLessThan(body + 1_000);
        // the echo answers the body back, with the caller's details and the Server-Timing header
        assertThat(received.totalAmount()).isGreaterThan(3.0 * body);
        assertThat(received.max()).isLessThan(body + 3_000);
        DistributionSummary document = registry.find(OperationMetrics.CLIENT_DOCUMENT_SIZE)
                .tags("endpoint", "/test/echo")
                .summary();
        assertThat(document.count()).isEqualTo(3);
        assertThat(document.max()).isEqualTo(100_003);
    }

    @Test
    void verifyWhenAnswerIsSmallThenReceivedBytesAreItsHeadAndBody() {
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        client.post("/test/echo", Map.of("i", 1), Map.class);
        // a body without a token: what travels went in a header, no document
        client.post("/test/echo", new DocumentRequest(null, 5L, null), Map.class);

        // status line and headers (a hundred bytes at least) and the JSON answer (two hundred)
        assertThat(bytes("received").max()).isBetween(300.0, 3_000.0);
        assertThat(bytes("sent").max()).isBetween(100.0 + "{\"i\":1}".length(), 1_000.0);
        assertThat(registry.find(OperationMetrics.CLIENT_DOCUMENT_SIZE).summary())
                .isNull();
    }

    @Test
    void verifyWhenAHeaderCarriesTheDocumentThenItsSizeIsTheDocumentAndTheBodyAddsNothing() {
        DownstreamClient client = client(ConnectionStrategy.POOLED);
        String token = "t".repeat(641);

        // a baseline's credential (the Txn-Token, a forwarded access token) in its header, only the amount in the body
        client.post(
                Operation.TARGET_CALL,
                "/test/echo",
                new DocumentRequest(null, 5L, null),
                Map.class,
                Optional.empty(),
                Map.of("Txn-Token", token),
                token.length());

        DistributionSummary document = registry.find(OperationMetrics.CLIENT_DOCUMENT_SIZE)
                .tags("endpoint", "/test/echo")
                .summary();
        assertThat(document.count()).isEqualTo(1);
        assertThat(document.max()).isEqualTo(641);
        // the header travelled: the request holds the token besides its head and the amount
        assertThat(bytes("sent").max()).isGreaterThan(641 + 100);

        // a header that carries only the caller's word (mtls-only's user) is no document
        client.post(
                Operation.TARGET_CALL,
                "/test/echo",
                new DocumentRequest(null, 5L, null),
                Map.class,
                Optional.empty(),
                Map.of("X-User", "iss=\"a\", sub=\"b\""),
                -1);
        assertThat(document.count()).isEqualTo(1);
    }

    @Test
    void verifyWhenGenericResponseTypeThenConverted() {
        Map<String, Object> answer = client(ConnectionStrategy.POOLED)
                .post("/test/echo", Map.of("k", "v"), new ParameterizedTypeReference<Map<String, Object>>() {});

        assertThat(answer.get("body")).isEqualTo(Map.of("k", "v"));
    }

    @ParameterizedTest
    @EnumSource(ConnectionStrategy.class)
    void verifyWhenGettingThenTextReadAndErrorsRelayed(ConnectionStrategy strategy) {
        DownstreamClient client = client(strategy);

        assertThat(client.get("/test/param?n=7", String.class)).isEqualTo("{\"n\":7}");
        assertThatAssertion(() -> client.get("/test/param?n=x", String.class)).hasCode(ErrorCode.MALFORMED);
        // a POST-only endpoint: refused, not turned into a POST
        assertThatThrownBy(() -> client.get("/test/echo", String.class)).isInstanceOf(AssertionException.class);
    }

    @Test
    void verifyWhenResponseNotWantedThenVoid() {
        assertThat(client(ConnectionStrategy.NON_POOLED).post("/test/echo", Map.of(), Void.class))
                .isNull();
    }

    @Test
    void verifyWhenResponseIsNotTheExpectedTypeThenUpstreamUnavailable() {
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        assertThatAssertion(() -> client.post("/test/echo", Map.of(), Integer.class))
                .hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void verifyWhenDownstreamRefusesCallerThenUpstreamUnavailable() {
        DownstreamClient client = client(ConnectionStrategy.POOLED);

        assertThatAssertion(() -> client.post("/test/target-only", Map.of(), Map.class))
                .hasMessageContaining("HTTP 403")
                .hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    void verifyWhenDownstreamFailsInternallyThenUpstreamUnavailableAs502() {
        DownstreamClient client = client(ConnectionStrategy.NON_POOLED);

        assertThatThrownBy(() -> client.post("/test/boom", Map.of(), Map.class))
                .isInstanceOfSatisfying(AssertionException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
                    assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(502);
                });
    }

    @ParameterizedTest
    @EnumSource(ConnectionStrategy.class)
    void verifyWhenServerDownThenUpstreamUnavailableAs503(ConnectionStrategy strategy) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        DownstreamClient client = clients(
                        PoolingProfile.THESIS,
                        Map.of(PoolingTable.overrideKey(Mode.DVID, Role.TARGET_WL), strategy),
                        Map.of(),
                        closedPort)
                .client(Mode.DVID, Role.TARGET_WL);

        assertThatThrownBy(() -> echo(client, 0)).isInstanceOfSatisfying(AssertionException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
            assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(503);
        });
    }

    @Test
    void verifyWhenCalledThenHttpClientTimerCarriesPoolingTag() {
        echo(client(ConnectionStrategy.POOLED), 0);
        echo(client(ConnectionStrategy.NON_POOLED), 0);

        assertThat(registry.get("http.client.requests")
                        .tag("pooling", "pooled")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("http.client.requests")
                        .tag("pooling", "non-pooled")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void verifyWhenSameCellAskedTwiceThenSameClient() {
        DownstreamClients clients = clients(PoolingProfile.THESIS, Map.of(), Map.of(), port);

        assertThat(clients.client(Mode.DVID, Role.TARGET_WL)).isSameAs(clients.client(Mode.DVID, Role.TARGET_WL));
        assertThat(clients.client(Mode.DVID, Role.TARGET_WL).strategy()).isEqualTo(ConnectionStrategy.POOLED);
        assertThat(clients.client(Mode.ANON_MODE, Role.TARGET_WL).strategy())
                .isEqualTo(ConnectionStrategy.NON_POOLED_FRESH_SOURCE);
    }

    @Test
    void verifyWhenEndpointIsNotHttpsThenRefused() {
        IdentityProperties identity = new IdentityProperties(
                TestIdentities.TRUST_DOMAIN,
                Role.M_TIER,
                null,
                Map.of(Role.TARGET_WL, URI.create("http://127.0.0.1:" + port)),
                IdentityProperties.defaults(TestIdentities.TRUST_DOMAIN, Role.M_TIER)
                        .workloadApi());
        PoolingProperties pooling = PoolingProperties.of(PoolingProfile.THESIS, null, 64);
        DownstreamClients clients = new DownstreamClients(
                identity,
                pooling,
                TestIdentities.source(Role.M_TIER),
                () -> TestIdentities.source(Role.M_TIER),
                RestClient.builder(),
                new OperationMetrics(registry));
        toClose.add(clients);

        assertThatThrownBy(() -> clients.client(Mode.DVID, Role.TARGET_WL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("https");
    }

    @Test
    void verifyWhenEndpointMissingThenRefused() {
        DownstreamClients clients = clients(PoolingProfile.THESIS, Map.of(), Map.of(), port);

        assertThatThrownBy(() -> clients.client(Mode.DVID, Role.ASSERTING_WL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spiffeidt.endpoints.asserting-wl");
    }
}
