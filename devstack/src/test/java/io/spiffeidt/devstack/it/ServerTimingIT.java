package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.spiffeidt.devstack.DevStackSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code Server-Timing} header of subject-wl's JSON API carries the whole call tree: its own
 * operations, and every downstream's entries prefixed by the downstream's name (docs/operations.md
 * names).
 */
class ServerTimingIT extends EmbeddedStackIT {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dvid", "id-mode", "anon-mode", "lsvid", "txn-token", "wimse"})
    void answerWhenMintThenDepositThenServerTimingOfEveryTier(String mode) throws Exception {
        String token = client.userToken("user0031");

        HttpResponse<String> mint = post(mode, "mint", token, "{}");
        assertThat(mint.statusCode()).as(mint.body()).isEqualTo(200);
        assertThat(names(mint))
                .contains("total", "mint_call", "asserting-wl.total", "asserting-wl.oauth_verify", "asserting-wl.mint");

        HttpResponse<String> deposit = post(mode, "deposit", token, "{\"amount\":3}");
        assertThat(deposit.statusCode()).as(deposit.body()).isEqualTo(200);
        assertThat(names(deposit))
                .contains(
                        "total",
                        "mtier_call",
                        "m-tier.total",
                        "m-tier.validate",
                        "m-tier.target_call",
                        "m-tier.target-wl.total",
                        "m-tier.target-wl.validate",
                        "m-tier.target-wl.db_query");
        assertThat(deposit.headers().firstValue("Server-Timing").orElseThrow())
                .containsPattern("m-tier\\.target-wl\\.db_query;dur=\\d+\\.\\d{3};start=\\d+\\.\\d{3}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"asserting-wl", "target-wl", "m-tier", "subject-wl"})
    void observationsWhenWorkloadRunsThenHttpServerObservedAndSpringSecurityNot(String workload) {
        ObservationRegistry registry = stack.context(workload).getBean(ObservationRegistry.class);

        Observation security = Observation.start("spring.security.filterchains", registry);
        Observation server = Observation.start("http.server.requests", registry);
        security.stop();
        server.stop();

        assertThat(security.isNoop())
                .as("spring.security observation of " + workload)
                .isTrue();
        assertThat(server.isNoop())
                .as("http.server.requests observation of " + workload)
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"dvid"})
    void answerWhenProblemThenServerTimingToo(String mode) throws Exception {
        HttpResponse<String> bad = post(mode, "balance", "not-a-token", "{}");
        assertThat(bad.statusCode()).isEqualTo(401);
        assertThat(names(bad)).contains("total");
    }

    private static HttpResponse<String> post(String mode, String operation, String token, String body)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.subjectUrl() + "/api/" + mode + "/" + operation))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> names(HttpResponse<String> response) {
        return response.headers().allValues("Server-Timing").stream()
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(entry -> entry.split(";")[0].trim())
                .toList();
    }
}
