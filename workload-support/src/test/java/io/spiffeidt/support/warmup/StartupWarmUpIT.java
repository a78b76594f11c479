package io.spiffeidt.support.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.spiffeidt.support.testapp.TestWorkloadApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The start-up warm-up on a real SPIFFE mTLS server (the test workload, as target-wl): its calls to
 * itself, what they are answered, its health, and its settings.
 */
class StartupWarmUpIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ConfigurableApplicationContext start(Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("spiffeidt.workload", "target-wl");
        all.put("server.port", "0");
        all.put("server.address", "127.0.0.1");
        all.put("management.server.port", "0");
        all.put("management.endpoints.web.exposure.include", "health");
        all.put("management.endpoint.health.show-details", "always");
        all.putAll(settings);
        String[] args = all.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        return new SpringApplicationBuilder(TestWorkloadApplication.class)
                .registerShutdownHook(false)
                .run(args);
    }

    private static StartupWarmUp.Result result(ConfigurableApplicationContext context) {
        return context.getBean(StartupWarmUp.class).result().orElseThrow();
    }

    private static JsonNode health(ConfigurableApplicationContext context) throws Exception {
        int port = Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void warmUpWhenEveryPathRefusesTheWorkloadThenAllCallsRefusedOverOnePooledConnection() throws Exception {
        try (ConfigurableApplicationContext context = start(Map.of(
                "spiffeidt.warm-up.requests", "40",
                "spiffeidt.warm-up.paths", "/test/echo,/subject/mint"))) {
            StartupWarmUp.Result result = result(context);

            assertThat(result.sent()).isEqualTo(40);
            assertThat(result.answers()).isEqualTo(Map.of(403, 40));
            assertThat(result.stopped()).isEmpty();
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            // one TLS handshake: the calls went over the pooled, kept-alive connection of a downstream client
            assertThat(meters.get("spiffeidt.client.handshakes")
                            .tag("downstream", "target-wl")
                            .counter()
                            .count())
                    .isEqualTo(1.0);
            // the server saw them as refused calls (the caller check, over mTLS)
            assertThat(meters.get("http.server.requests").tag("status", "403").timers().stream()
                            .mapToLong(t -> t.count())
                            .sum())
                    .isEqualTo(40);
            JsonNode warmUp = health(context).path("components").path("warmUp");
            assertThat(warmUp.path("status").asString()).isEqualTo("UP");
            assertThat(warmUp.path("details").path("sent").asInt()).isEqualTo(40);
            assertThat(warmUp.path("details").has("stopped")).isFalse();
        }
    }

    @Test
    void warmUpWhenAnEndpointAcceptsTheWorkloadThenItStopsThereAndTheWorkloadIsStillReady() throws Exception {
        // no paths: every POST endpoint declaring its callers, sorted; /test/target-only allows target-wl
        try (ConfigurableApplicationContext context = start(Map.of("spiffeidt.warm-up.requests", "500"))) {
            StartupWarmUp.Result result = result(context);

            assertThat(result.stopped()).contains("POST /test/target-only answered 200, not a refusal");
            assertThat(result.answers()).containsEntry(200, 1);
            assertThat(result.answers().get(403)).isEqualTo(result.sent() - 1).isPositive();
            JsonNode warmUp = health(context).path("components").path("warmUp");
            assertThat(warmUp.path("status").asString()).isEqualTo("UP");
            assertThat(warmUp.path("details").path("stopped").asString()).contains("/test/target-only");
        }
    }

    @Test
    void warmUpWhenTimeLimitReachedThenItStopsThere() {
        try (ConfigurableApplicationContext context = start(Map.of(
                "spiffeidt.warm-up.requests", "1000000",
                "spiffeidt.warm-up.time-limit", "300ms",
                "spiffeidt.warm-up.paths", "/test/echo"))) {
            StartupWarmUp.Result result = result(context);

            assertThat(result.stopped()).contains("time limit PT0.3S reached");
            assertThat(result.sent()).isBetween(1, 999_999);
            assertThat(result.answers()).isEqualTo(Map.of(403, result.sent()));
        }
    }

    @Test
    void warmUpWhenNotSetThenNoWarmUpAndNoHealthContributor() throws Exception {
        try (ConfigurableApplicationContext context = start(Map.of())) {
            assertThat(context.getBeansOfType(StartupWarmUp.class)).isEmpty();
            assertThat(health(context).path("components").has("warmUp")).isFalse();
            assertThat(((WebServerApplicationContext) context).getWebServer().getPort())
                    .isPositive();
        }
    }

    @Test
    void settingsWhenInvalidThenTheWorkloadDoesNotStart() {
        assertThatThrownBy(() -> start(Map.of("spiffeidt.warm-up.requests", "-1")))
                .hasStackTraceContaining("spiffeidt.warm-up.requests must not be negative");
        assertThatThrownBy(() -> start(
                        Map.of("spiffeidt.warm-up.requests", "5", "spiffeidt.warm-up.paths", "/api/{mode}/balance")))
                .hasStackTraceContaining("spiffeidt.warm-up.paths");
        assertThatThrownBy(() -> start(Map.of("spiffeidt.warm-up.requests", "5", "spiffeidt.warm-up.time-limit", "0s")))
                .hasStackTraceContaining("spiffeidt.warm-up.time-limit must be positive");
    }

    @Test
    void healthWhileNotFinishedThenOutOfService() {
        StartupWarmUp warmUp = new StartupWarmUp(
                new WarmUpProperties(10, java.time.Duration.ofSeconds(1), java.util.List.of()),
                base -> {
                    throw new AssertionError("not called before run");
                },
                new StartupWarmUp.Endpoints() {
                    @Override
                    public URI base() {
                        return URI.create("https://127.0.0.1:1");
                    }

                    @Override
                    public boolean mtls() {
                        return true;
                    }

                    @Override
                    public Map<
                                    org.springframework.web.servlet.mvc.method.RequestMappingInfo,
                                    org.springframework.web.method.HandlerMethod>
                            mappings() {
                        return Map.of();
                    }
                });

        assertThat(warmUp.health().getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
        assertThat(warmUp.health().getDetails()).containsEntry("sent", 0).containsEntry("of", 10);
        assertThat(warmUp.result()).isEqualTo(Optional.empty());
    }
}
