package io.spiffeidt.support.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.client.DownstreamClient;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.client.PoolingProfile;
import io.spiffeidt.support.client.PoolingProperties;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.testing.TestMtlsServer;
import io.spiffeidt.support.testing.TestWorkloadApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/** The production source factory against a real (test) Workload API over a unix socket. */
class WorkloadApiX509SourceIT {

    private Path dir;
    private TestWorkloadApi api;

    @BeforeEach
    void start() throws Exception {
        // unix socket paths are limited to ~100 bytes: keep it short
        dir = Files.createTempDirectory(Path.of("/tmp"), "wsapi");
        api = new TestWorkloadApi(dir, TestIdentities.PKI, TestIdentities.id(Role.M_TIER));
    }

    @AfterEach
    void stop() throws Exception {
        api.close();
        Files.deleteIfExists(dir.resolve("agent.sock"));
        Files.deleteIfExists(dir);
    }

    private WorkloadApiX509SourceFactory factory() {
        return new WorkloadApiX509SourceFactory(api.address(), Duration.ofSeconds(10));
    }

    @Test
    void verifyWhenWorkloadApiServesSvidThenSourceHoldsItAndBundle() throws Exception {
        try (X509Source source = factory().open()) {
            WorkloadIdentity identity =
                    new WorkloadIdentity(source, IdentityProperties.defaults("example.org", Role.M_TIER));

            assertThat(identity.svidId()).isEqualTo(identity.self());
            assertThat(identity.bundle().roots()).containsExactly(TestIdentities.PKI.caCertificate());
            assertThat(identity.chain()).hasSize(1);
        }
    }

    @Test
    void verifyWhenWorkloadApiRotatesThenSourceSeesNewSvid() throws Exception {
        try (X509Source source = factory().open()) {
            X509Svid rotated = api.rotate();

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(
                            () -> assertThat(source.getX509Svid().getLeaf()).isEqualTo(rotated.getLeaf()));
        }
    }

    @Test
    void verifyWhenFreshSourceStrategyWithRealFactoryThenOneStreamPerRequestAndAllClosed() throws Exception {
        try (StaticX509Source serverSource = TestIdentities.source(Role.TARGET_WL);
                TestMtlsServer server = new TestMtlsServer(serverSource)) {
            IdentityProperties identity = new IdentityProperties(
                    "example.org",
                    Role.M_TIER,
                    null,
                    Map.of(Role.TARGET_WL, server.uri()),
                    IdentityProperties.defaults("example.org", Role.M_TIER).workloadApi());
            try (DownstreamClients clients = new DownstreamClients(
                    identity,
                    PoolingProperties.of(PoolingProfile.FRESH_SOURCE, null, 4),
                    TestIdentities.source(Role.M_TIER),
                    factory(),
                    RestClient.builder(),
                    new OperationMetrics(new SimpleMeterRegistry()))) {
                DownstreamClient client = clients.client(Mode.ANON_MODE, Role.TARGET_WL);
                for (int i = 0; i < 3; i++) {
                    assertThat(client.post("/hello", Map.of("i", i), Map.class))
                            .containsEntry("caller", TestIdentities.id(Role.M_TIER));
                }
            }
            assertThat(api.fetches()).isEqualTo(3);
            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(api.openStreams()).isZero());
        }
    }
}
