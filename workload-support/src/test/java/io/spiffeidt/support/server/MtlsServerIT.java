package io.spiffeidt.support.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffe.provider.SpiffeTrustManager;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testapp.TestWorkloadApplication;
import io.spiffeidt.support.testing.StaticX509Source;
import io.spiffeidt.support.testing.TestIdentities;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

@SpringBootTest(
        classes = TestWorkloadApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spiffeidt.workload=target-wl",
            "management.server.port=0",
            "management.endpoints.web.exposure.include=health,prometheus"
        })
class MtlsServerIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    X509Source serverX509Source;

    private HttpResponse<String> post(HttpClient client, String path, String body) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpClient clientOf(Role role) {
        return TestIdentities.httpClient(TestIdentities.source(role), TestIdentities.id(Role.TARGET_WL));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HttpResponse<String> response) {
        return JSON.readValue(response.body(), Map.class);
    }

    @Test
    void verifyWhenAllowedCallerThenOkAndCallerParameterCarriesPeerIdAndKey() throws Exception {
        StaticX509Source mtier = TestIdentities.source(Role.M_TIER);
        HttpResponse<String> response =
                post(TestIdentities.httpClient(mtier, TestIdentities.id(Role.TARGET_WL)), "/test/echo", "{\"a\":1}");

        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> body = json(response);
        assertThat(body.get("caller")).isEqualTo(TestIdentities.id(Role.M_TIER));
        assertThat(body.get("keyAlgorithm")).isEqualTo("EC");
        assertThat(body.get("leafMatchesKey")).isEqualTo(true);
        assertThat(body.get("body")).isEqualTo(Map.of("a", 1));
    }

    @Test
    void verifyWhenCallerHasAnotherSpiffeIdThenForbiddenProblemWithCode() throws Exception {
        HttpResponse<String> response = post(clientOf(Role.ASSERTING_WL), "/test/echo", "{}");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
        Map<String, Object> body = json(response);
        assertThat(body.get("title")).isEqualTo("Caller not allowed");
        assertThat(body.get("code")).isEqualTo("CALLER_NOT_ALLOWED");
    }

    @Test
    void verifyWhenHandlerHasNoAllowedCallersThenForbidden() throws Exception {
        HttpResponse<String> response = post(clientOf(Role.M_TIER), "/test/unannotated", "{}");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(json(response).get("title")).isEqualTo("Caller not allowed");
    }

    @Test
    void verifyWhenClassAnnotatedThenClassRolesAllowedAndMethodAnnotationReplacesThem() throws Exception {
        assertThat(post(clientOf(Role.SUBJECT_WL), "/subject/mint", "").statusCode())
                .isEqualTo(200);
        assertThat(post(clientOf(Role.M_TIER), "/subject/mint", "").statusCode())
                .isEqualTo(403);
        assertThat(post(clientOf(Role.M_TIER), "/subject/validate", "").statusCode())
                .isEqualTo(200);
        assertThat(post(clientOf(Role.SUBJECT_WL), "/subject/validate", "").statusCode())
                .isEqualTo(403);
    }

    @Test
    void verifyWhenClientPresentsNoCertificateThenHandshakeFails() throws Exception {
        StaticX509Source trustOnly = TestIdentities.source(Role.M_TIER);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(
                null,
                new TrustManager[] {
                    new SpiffeTrustManager(
                            trustOnly,
                            () -> Set.of(io.spiffe.spiffeid.SpiffeId.parse(TestIdentities.id(Role.TARGET_WL))))
                },
                null);
        HttpClient client = TestIdentities.httpClient(context);

        assertThatThrownBy(() -> post(client, "/test/echo", "{}")).isInstanceOf(IOException.class);
    }

    @Test
    void verifyWhenClientCertificateFromAnotherCaThenHandshakeFails() {
        StaticX509Source rogue = new StaticX509Source(
                TestIdentities.ROGUE.issue(TestIdentities.id(Role.M_TIER)), TestIdentities.PKI.bundle());
        HttpClient client = TestIdentities.httpClient(rogue, TestIdentities.id(Role.TARGET_WL));

        assertThatThrownBy(() -> post(client, "/test/echo", "{}")).isInstanceOf(IOException.class);
    }

    @Test
    void verifyWhenServerIsNotTheExpectedIdThenClientRefusesHandshake() {
        HttpClient client =
                TestIdentities.httpClient(TestIdentities.source(Role.M_TIER), TestIdentities.id(Role.ASSERTING_WL));

        assertThatThrownBy(() -> post(client, "/test/echo", "{}")).isInstanceOf(IOException.class);
    }

    @Test
    void verifyWhenServerSvidRotatesThenNewHandshakesPresentTheNewCertificate() throws Exception {
        StaticX509Source serverSource = (StaticX509Source) serverX509Source;
        HttpResponse<String> before = post(clientOf(Role.M_TIER), "/test/echo", "{}");
        X509Certificate firstLeaf =
                (X509Certificate) before.sslSession().orElseThrow().getPeerCertificates()[0];

        serverSource.rotate(TestIdentities.PKI.issue(TestIdentities.id(Role.TARGET_WL)));
        HttpResponse<String> after = post(clientOf(Role.M_TIER), "/test/echo", "{}");
        X509Certificate secondLeaf =
                (X509Certificate) after.sslSession().orElseThrow().getPeerCertificates()[0];

        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(secondLeaf.getSerialNumber()).isNotEqualTo(firstLeaf.getSerialNumber());
        assertThat(secondLeaf).isEqualTo(serverSource.getX509Svid().getLeaf());
        assertThat(after.sslSession().orElseThrow().getProtocol()).isEqualTo("TLSv1.3");
    }

    @Test
    void verifyWhenSvidRotatesDuringRequestThenRequestKeepsTheSvidItFirstRead() throws Exception {
        HttpResponse<String> during = post(clientOf(Role.M_TIER), "/test/rotate-mid-request", "{}");
        HttpResponse<String> next = post(clientOf(Role.M_TIER), "/test/rotate-mid-request", "{}");

        assertThat(during.statusCode()).isEqualTo(200);
        Map<String, Object> first = json(during);
        assertThat(first.get("live")).as("the source rotated").isNotEqualTo(first.get("first"));
        assertThat(first.get("second")).as("the request kept its SVID").isEqualTo(first.get("first"));
        Map<String, Object> second = json(next);
        assertThat(second.get("first"))
                .as("the next request reads the rotated SVID")
                .isEqualTo(first.get("live"));
        assertThat(second.get("second")).isEqualTo(second.get("first"));
    }

    @Test
    void verifyWhenPlainHttpOnManagementPortThenPrometheusHasMetrics() throws Exception {
        post(clientOf(Role.M_TIER), "/test/echo", "{}");
        HttpClient plain = HttpClient.newHttpClient();

        HttpResponse<String> response = plain.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("spiffeidt_operation_seconds_bucket")
                .contains("operation=\"validate\"")
                .contains("mode=\"dvid\"")
                .contains("outcome=\"success\"")
                .contains("workload=\"target-wl\"")
                .contains("crypto_provider=\"")
                .contains("http_server_requests_seconds_bucket");
    }
}
