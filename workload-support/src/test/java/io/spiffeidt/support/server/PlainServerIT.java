package io.spiffeidt.support.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.support.testapp.TestWorkloadApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** subject-wl's user port: plain HTTP, no caller authorization, same problem details. */
@SpringBootTest(
        classes = TestWorkloadApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spiffeidt.workload=subject-wl", "spiffeidt.server.mtls=false"})
class PlainServerIT {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    private HttpResponse<String> post(String path, String body) throws Exception {
        return CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void verifyWhenMtlsDisabledThenPlainHttpServesUnannotatedHandlers() throws Exception {
        HttpResponse<String> response = post("/test/unannotated", "{\"a\":1}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"a\":1}");
    }

    @Test
    void verifyWhenHandlerWantsCallerWithoutClientCertificateThenForbidden() throws Exception {
        HttpResponse<String> response = post("/test/echo", "{}");

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("Caller not allowed").contains("\"code\":\"CALLER_NOT_ALLOWED\"");
    }

    @Test
    void verifyWhenBadJsonThenMalformedProblem() throws Exception {
        HttpResponse<String> response = post("/test/unannotated", "{oops");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":\"MALFORMED\"");
    }
}
