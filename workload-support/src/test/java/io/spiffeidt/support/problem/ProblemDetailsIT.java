package io.spiffeidt.support.problem;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testapp.TestWorkloadApplication;
import io.spiffeidt.support.testing.TestIdentities;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.context.SpringBootTest;
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
class ProblemDetailsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT =
            TestIdentities.httpClient(TestIdentities.source(Role.M_TIER), TestIdentities.id(Role.TARGET_WL));

    @LocalServerPort
    int port;

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        request.method(
                method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> postJson(String path, String body) throws Exception {
        return send("POST", path, "application/json", body);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> problem(HttpResponse<String> response) {
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("application/problem+json"));
        return JSON.readValue(response.body(), Map.class);
    }

    private static void assertCoded(HttpResponse<String> response, int status, ErrorCode code) {
        assertThat(response.statusCode()).isEqualTo(status);
        Map<String, Object> problem = problem(response);
        assertThat(problem.get("status")).isEqualTo(status);
        assertThat(problem.get("title")).isEqualTo(code.name());
        assertThat(problem.get("code")).isEqualTo(code.name());
        assertThat(problem.get("type"))
                .isEqualTo("urn:spiffeidt:problem:" + code.name().toLowerCase(Locale.ROOT));
    }

    private static void assertHttpCoded(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).isEqualTo(status);
        Map<String, Object> problem = problem(response);
        assertThat(problem.get("status")).isEqualTo(status);
        assertThat(problem.get("code")).isEqualTo(code);
    }

    @AfterEach
    void stillServing() throws Exception {
        HttpResponse<String> response = postJson("/test/echo", "{\"ok\":true}");
        assertThat(response.statusCode()).isEqualTo(200);
    }

    @ParameterizedTest
    @EnumSource(
            value = ErrorCode.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {"LIMIT_EXCEEDED", "UPSTREAM_UNAVAILABLE"})
    void verifyWhenAssertionExceptionThenStatusOfCodeWithCodeProperty(ErrorCode code) throws Exception {
        HttpResponse<String> response = postJson("/test/fail", "{\"code\":\"" + code.name() + "\"}");

        assertCoded(response, code.httpStatus(), code);
        assertThat(problem(response).get("detail").toString()).contains("test failure");
    }

    @Test
    void verifyWhenLimitExceededNotBySizeThen400() throws Exception {
        assertCoded(postJson("/test/fail", "{\"code\":\"LIMIT_EXCEEDED\"}"), 400, ErrorCode.LIMIT_EXCEEDED);
        assertCoded(postJson("/test/depth", "{}"), 400, ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenEncodedSizeOverLimitThen413() throws Exception {
        String big = "x".repeat(300 * 1024);

        assertCoded(send("POST", "/test/size", "text/plain", big), 413, ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenBodyOf500KiBThenAccepted() throws Exception {
        String value = "y".repeat(500 * 1024);

        HttpResponse<String> response = postJson("/test/echo", "{\"big\":\"" + value + "\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains(value);
    }

    @Test
    void verifyWhenDeclaredBodyOver1MiBThen413BeforeReading() throws Exception {
        String value = "z".repeat(1100 * 1024);

        assertCoded(postJson("/test/echo", "{\"big\":\"" + value + "\"}"), 413, ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenChunkedBodyOver1MiBThen413() throws Exception {
        byte[] body = ("{\"big\":\"" + "w".repeat(1100 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/test/echo"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();

        assertCoded(CLIENT.send(request, HttpResponse.BodyHandlers.ofString()), 413, ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenChunkedBodyUnderLimitThenAccepted() throws Exception {
        byte[] body = ("{\"big\":\"" + "v".repeat(300 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/test/echo"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();

        assertThat(CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
    }

    @Test
    void verifyWhenUpstreamUnavailableThen502OrWhenRefused503() throws Exception {
        assertCoded(postJson("/test/fail", "{\"code\":\"UPSTREAM_UNAVAILABLE\"}"), 502, ErrorCode.UPSTREAM_UNAVAILABLE);
        assertCoded(postJson("/test/refused", "{}"), 503, ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    @Test
    @Timeout(60)
    void verifyWhenWorkloadApiGivesNoSvidWithinTheRequestsTimeThen503WithRetryAfter() throws Exception {
        HttpResponse<String> response = postJson("/test/no-workload-api", "{}");

        assertCoded(response, 503, ErrorCode.UPSTREAM_UNAVAILABLE);
        assertThat(response.headers().firstValue("Retry-After")).isPresent();
    }

    @Test
    void verifyWhenJsonUnreadableThenMalformed() throws Exception {
        assertCoded(postJson("/test/echo", "{not json"), 400, ErrorCode.MALFORMED);
        assertCoded(postJson("/test/echo", ""), 400, ErrorCode.MALFORMED);
        assertCoded(postJson("/test/validated", "{\"user\":\"u\",\"amount\":\"many\"}"), 400, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenValidationFailsThenMalformed() throws Exception {
        assertCoded(postJson("/test/validated", "{\"user\":\"\",\"amount\":-5}"), 400, ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenParameterMissingOrWrongTypeThenMalformed() throws Exception {
        assertCoded(send("GET", "/test/param", null, null), 400, ErrorCode.MALFORMED);
        assertCoded(send("GET", "/test/param?n=abc", null, null), 400, ErrorCode.MALFORMED);
        assertThat(send("GET", "/test/param?n=4", null, null).statusCode()).isEqualTo(200);
    }

    @Test
    void verifyWhenMediaTypeUnsupportedThen415WithCode() throws Exception {
        assertHttpCoded(send("POST", "/test/echo", "text/plain", "hello"), 415, "UNSUPPORTED_MEDIA_TYPE");
    }

    @Test
    void verifyWhenMethodNotAllowedThen405WithCode() throws Exception {
        assertHttpCoded(send("GET", "/test/echo", null, null), 405, "METHOD_NOT_ALLOWED");
    }

    @Test
    void verifyWhenUnknownPathThen404WithCode() throws Exception {
        assertHttpCoded(postJson("/no/such/path", "{}"), 404, "NOT_FOUND");
    }

    @Test
    void verifyWhenErrorPathAskedDirectlyOnTheMtlsPortThenCodedProblemNotStatus999() throws Exception {
        // /error names no allowed callers, so the mTLS port refuses it (the plain port answers 404 NOT_FOUND,
        // HardeningAttackIT)
        assertHttpCoded(send("GET", "/error", null, null), 403, "CALLER_NOT_ALLOWED");
    }

    @Test
    void verifyWhenUnexpectedExceptionThen500WithoutDetails() throws Exception {
        HttpResponse<String> response = postJson("/test/boom", "{}");

        assertHttpCoded(response, 500, "INTERNAL_ERROR");
        assertThat(problem(response).get("detail")).isEqualTo("internal error");
        assertThat(response.body()).doesNotContain("secret internal detail");
    }
}
