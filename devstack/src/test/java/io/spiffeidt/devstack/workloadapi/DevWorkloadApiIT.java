package io.spiffeidt.devstack.workloadapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.spiffe.exception.JwtSvidException;
import io.spiffe.exception.X509SourceException;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.svid.jwtsvid.JwtSvid;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.DefaultJwtSource;
import io.spiffe.workloadapi.DefaultWorkloadApiClient;
import io.spiffe.workloadapi.DefaultX509Source;
import io.spiffe.workloadapi.JwtSource;
import io.spiffe.workloadapi.JwtSourceOptions;
import io.spiffe.workloadapi.WorkloadApiClient;
import io.spiffe.workloadapi.grpc.Workload;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.ca.DevCa;
import io.spiffeidt.testkit.Await;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * java-spiffe's own sources and client, unchanged, against the development Workload API: the
 * proof that it can stand in for the SPIRE agent.
 */
class DevWorkloadApiIT {

    private static final Duration INIT_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final TrustDomain TRUST_DOMAIN = TrustDomain.parse("example.org");
    private static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject-wl");
    private static final String M_TIER = "spiffe://example.org/m-tier";

    @TempDir
    Path socketDir;

    private final Deque<AutoCloseable> clients = new ArrayDeque<>();
    private DevCa ca;
    private DevWorkloadApi api;

    @BeforeEach
    void startWorkloadApi() {
        ca = DevCa.create("example.org", Duration.ofHours(1), Clock.systemUTC());
        api = DevWorkloadApi.start(ca, socketDir);
    }

    @AfterEach
    void stopEverything() throws Exception {
        while (!clients.isEmpty()) {
            clients.pop().close();
        }
        api.close();
    }

    @Test
    void verifyWhenX509SourceConnectsThenItHoldsTheWorkloadSvidAndTheBundle() throws Exception {
        Path socket = api.addWorkload("subject-wl", SUBJECT);

        DefaultX509Source source = x509Source(socket);
        X509Svid svid = source.getX509Svid();

        assertThat(socket).isEqualTo(socketDir.resolve("subject-wl.sock").toAbsolutePath());
        assertThat(svid.getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
        assertThat(svid.getLeaf()).isEqualTo(api.current("subject-wl").leaf());
        assertThat(svid.getPrivateKey().getEncoded())
                .isEqualTo(api.current("subject-wl").key().getEncoded());
        assertThat(source.getBundleForTrustDomain(TRUST_DOMAIN).getX509Authorities())
                .containsExactly(ca.root());
    }

    @Test
    void verifyWhenRotatedThenTheX509SourcePicksUpTheNewSvid() throws Exception {
        Path socket = api.addWorkload("subject-wl", SUBJECT);
        DefaultX509Source source = x509Source(socket);
        BigInteger before = serial(source);

        api.rotate("subject-wl");
        BigInteger rotated = api.current("subject-wl").leaf().getSerialNumber();
        BigInteger seen = Await.until(() -> serial(source), rotated::equals, WAIT);

        assertThat(rotated).isNotEqualTo(before);
        assertThat(seen).isEqualTo(rotated);
        assertThat(source.getX509Svid().getPrivateKey().getEncoded())
                .isEqualTo(api.current("subject-wl").key().getEncoded());
    }

    @Test
    void verifyWhenTtlIsShortThenAutomaticRotationReachesTheSource() throws Exception {
        DevCa shortLived = DevCa.create("example.org", Duration.ofSeconds(2), Clock.systemUTC());
        DevWorkloadApi rotating = DevWorkloadApi.start(shortLived, socketDir.resolve("short"));
        clients.push(rotating::close);
        Path socket = rotating.addWorkload("subject-wl", SUBJECT);
        DefaultX509Source source = x509Source(socket);
        BigInteger first = serial(source);

        BigInteger later = Await.until(() -> serial(source), s -> !s.equals(first), WAIT);

        assertThat(later).isNotEqualTo(first);
        assertThat(source.getX509Svid().getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
    }

    @Test
    void verifyWhenJwtSvidFetchedThenItValidatesWithTheStreamedJwtBundle() throws Exception {
        Path socket = api.addWorkload("subject-wl", SUBJECT);
        JwtSource source = DefaultJwtSource.newSource(JwtSourceOptions.builder()
                .spiffeSocketPath("unix:" + socket)
                .initTimeout(INIT_TIMEOUT)
                .build());
        clients.push(source);

        JwtSvid fetched = source.fetchJwtSvid(M_TIER);
        JwtSvid validated = JwtSvid.parseAndValidate(fetched.getToken(), source, Set.of(M_TIER));

        assertThat(fetched.getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
        assertThat(validated.getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
        assertThat(validated.getAudience()).containsExactly(M_TIER);
        assertThat(source.getBundleForTrustDomain(TRUST_DOMAIN).getJwtAuthorities())
                .containsOnlyKeys(ca.jwtKeyId());
    }

    @Test
    void verifyWhenJwtSvidValidatedByTheWorkloadApiThenItIsAccepted() throws Exception {
        WorkloadApiClient client = client(api.addWorkload("m-tier", SpiffeId.parse(M_TIER)));
        String token = ca.signJwtSvid(SUBJECT, List.of(M_TIER), Duration.ofMinutes(1));

        JwtSvid validated = client.validateJwtSvid(token, M_TIER);

        assertThat(validated.getSpiffeId().toString()).isEqualTo(SUBJECT.toString());
    }

    @Test
    void verifyWhenJwtSvidForAnotherAudienceThenTheWorkloadApiRejectsIt() throws Exception {
        WorkloadApiClient client = client(api.addWorkload("m-tier", SpiffeId.parse(M_TIER)));
        String token = ca.signJwtSvid(SUBJECT, List.of("spiffe://example.org/target-wl"), Duration.ofMinutes(1));

        assertThatThrownBy(() -> client.validateJwtSvid(token, M_TIER))
                .isInstanceOf(JwtSvidException.class)
                .rootCause()
                .hasMessageContaining("INVALID_ARGUMENT")
                .hasMessageContaining("WRONG_AUDIENCE");
    }

    @Test
    void verifyWhenX509BundlesFetchedThenTheRootIsTheTrustDomainBundle() throws Exception {
        WorkloadApiClient client = client(api.addWorkload("subject-wl", SUBJECT));

        var bundles = client.fetchX509Bundles();

        assertThat(bundles.getBundleForTrustDomain(TRUST_DOMAIN).getX509Authorities())
                .containsExactly(ca.root());
        assertThat(client.fetchJwtBundles()
                        .getBundleForTrustDomain(TRUST_DOMAIN)
                        .getJwtAuthorities())
                .containsOnlyKeys(ca.jwtKeyId());
    }

    @Test
    void verifyWhenSecurityHeaderMissingThenTheCallFailsWithInvalidArgument() throws Exception {
        Path socket = api.addWorkload("subject-wl", SUBJECT);
        RawWorkloadApiChannel raw = new RawWorkloadApiChannel(socket);
        clients.push(raw);
        Workload.JWTSVIDRequest request =
                Workload.JWTSVIDRequest.newBuilder().addAudience(M_TIER).build();

        assertThatThrownBy(() -> raw.blocking(false).fetchJWTSVID(request))
                .isInstanceOf(StatusRuntimeException.class)
                .satisfies(
                        e -> assertThat(((StatusRuntimeException) e).getStatus().getCode())
                                .isEqualTo(Status.Code.INVALID_ARGUMENT))
                .hasMessageContaining("security header missing");
        assertThatThrownBy(() -> raw.blocking(false)
                        .fetchX509SVID(Workload.X509SVIDRequest.getDefaultInstance())
                        .next())
                .isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining("security header missing");
        assertThat(raw.blocking(true).fetchJWTSVID(request).getSvids(0).getSpiffeId())
                .isEqualTo(SUBJECT.toString());
    }

    @Test
    void verifyWhenSocketUnknownThenTheX509SourceFailsWithAClearError() {
        api.addWorkload("subject-wl", SUBJECT);
        Path unknown = socketDir.resolve("nobody.sock");

        assertThatThrownBy(() -> DefaultX509Source.newSource(DefaultX509Source.X509SourceOptions.builder()
                        .spiffeSocketPath("unix:" + unknown)
                        .initTimeout(Duration.ofSeconds(1))
                        .build()))
                .isInstanceOf(X509SourceException.class)
                .hasMessageContaining("Error creating X.509 source")
                .hasStackTraceContaining("Timeout waiting for X.509 Context update");
        assertThat(unknown).doesNotExist();
    }

    @Test
    void verifyWhenManyClientsShareASocketAndOneDropsThenTheOthersStillGetRotations() throws Exception {
        Path socket = api.addWorkload("subject-wl", SUBJECT);
        List<DefaultX509Source> sources = List.of(x509Source(socket), x509Source(socket), x509Source(socket));
        RawWorkloadApiChannel dropping = new RawWorkloadApiChannel(socket);
        CompletableFuture<Workload.X509SVIDResponse> firstMessage = new CompletableFuture<>();
        dropping.async().fetchX509SVID(Workload.X509SVIDRequest.getDefaultInstance(), new FirstMessage(firstMessage));
        assertThat(firstMessage
                        .get(WAIT.toSeconds(), TimeUnit.SECONDS)
                        .getSvids(0)
                        .getSpiffeId())
                .isEqualTo(SUBJECT.toString());
        assertThat(Await.until(() -> api.openX509Streams("subject-wl"), n -> n == 4, WAIT))
                .isEqualTo(4);

        dropping.close();
        int remaining = Await.until(() -> api.openX509Streams("subject-wl"), n -> n == 3, WAIT);
        api.rotate("subject-wl");
        BigInteger rotated = api.current("subject-wl").leaf().getSerialNumber();

        assertThat(remaining).isEqualTo(3);
        for (DefaultX509Source source : sources) {
            assertThat(Await.until(() -> serial(source), rotated::equals, WAIT)).isEqualTo(rotated);
        }
    }

    @Test
    void verifyWhenDefaultWorkloadsAddedThenEachSocketServesItsOwnId() throws Exception {
        Map<String, Path> sockets = api.addDefaultWorkloads();

        assertThat(sockets.keySet()).containsExactlyElementsOf(DevWorkloadApi.DEFAULT_WORKLOADS);
        for (Map.Entry<String, Path> entry : sockets.entrySet()) {
            DefaultX509Source source = x509Source(entry.getValue());
            assertThat(source.getX509Svid().getSpiffeId().toString())
                    .isEqualTo("spiffe://example.org/" + entry.getKey());
            assertThat(api.endpointAddress(entry.getKey())).isEqualTo("unix:" + entry.getValue());
        }
    }

    @Test
    void verifyWhenClosedThenSocketsAreDeletedAndTheApiRefusesWork() {
        Path socket = api.addWorkload("subject-wl", SUBJECT);
        assertThat(socket).exists();

        api.close();

        assertThat(Files.exists(socket)).isFalse();
        assertThatThrownBy(() -> api.rotate("subject-wl")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> api.addWorkload("m-tier", SpiffeId.parse(M_TIER)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void verifyWhenWorkloadNameBadOrTakenThenRefused() {
        api.addWorkload("subject-wl", SUBJECT);

        assertThatThrownBy(() -> api.addWorkload("subject-wl", SUBJECT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already");
        assertThatThrownBy(() -> api.addWorkload("../escape", SUBJECT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid workload name");
        assertThatThrownBy(() -> api.addWorkload("other", SpiffeId.parse("spiffe://other.org/x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> api.current("nobody")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void verifyWhenSocketPathTooLongForUnixSocketsThenRefusedBeforeBinding() {
        DevWorkloadApi deep = DevWorkloadApi.start(ca, socketDir.resolve("d".repeat(100)));
        clients.push(deep);

        assertThatThrownBy(() -> deep.addWorkload("subject-wl", SUBJECT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("socket path longer than");
        assertThat(deep.workloads()).isEmpty();
    }

    private DefaultX509Source x509Source(Path socket) throws Exception {
        DefaultX509Source source = DefaultX509Source.newSource(DefaultX509Source.X509SourceOptions.builder()
                .spiffeSocketPath("unix:" + socket)
                .initTimeout(INIT_TIMEOUT)
                .build());
        clients.push(source);
        return source;
    }

    private WorkloadApiClient client(Path socket) throws Exception {
        WorkloadApiClient client = DefaultWorkloadApiClient.newClient(DefaultWorkloadApiClient.ClientOptions.builder()
                .spiffeSocketPath("unix:" + socket)
                .build());
        clients.push(client);
        return client;
    }

    private static BigInteger serial(DefaultX509Source source) {
        return source.getX509Svid().getLeaf().getSerialNumber();
    }

    /** Completes with the first message of a stream, then keeps the stream open. */
    private static final class FirstMessage implements io.grpc.stub.StreamObserver<Workload.X509SVIDResponse> {
        private final CompletableFuture<Workload.X509SVIDResponse> first;

        FirstMessage(CompletableFuture<Workload.X509SVIDResponse> first) {
            this.first = first;
        }

        @Override
        public void onNext(Workload.X509SVIDResponse value) {
            first.complete(value);
        }

        @Override
        public void onError(Throwable t) {
            first.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {}
    }
}
