package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.testkit.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The hardening issue's overload point against the embedded stack, with every workload limited to
 * 2 requests at a time and 2 waiting: a burst far beyond that is answered 200, 503 with {@code
 * Retry-After} or 504, never 502 or 500, and nothing is lost (the balances are exactly the
 * deposits acknowledged with 200); a request without time left does no work. Loopback only, and
 * bounded: every request has a client timeout, and the burst is a fixed number of requests.
 */
class OverloadAttackIT extends EmbeddedStackIT {

    private static final String MODE = "lsvid";
    private static final int USERS = 4;
    private static final int BURST = 120;
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newFixedThreadPool(8))
            .build();

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral()
                .withProperty("spiffeidt.admission.max-concurrent", "2")
                .withProperty("spiffeidt.admission.queue-size", "2")
                .withProperty("spiffeidt.admission.queue-wait", "100ms"));
    }

    @AfterAll
    static void stop() {
        stopStack();
    }

    private static HttpResponse<String> deposit(String token, long amount, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(stack.subjectUrl().resolve("/api/" + MODE + "/deposit"))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":" + amount + "}"));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The balance, asked until the stack has room (the burst is over by then); meanwhile only 503. */
    private static long balance(String token) throws InterruptedException {
        Answer a = Await.until(
                () -> {
                    Answer answer = client.user(MODE, "balance", token, null);
                    assertThat(answer.status()).as(answer.body()).isIn(200, 503);
                    return answer;
                },
                answer -> answer.status() == 200,
                Duration.ofSeconds(10),
                Duration.ofMillis(100));
        assertThat(a.status())
                .as("the balance once the burst is over: %s", a.body())
                .isEqualTo(200);
        return a.json().get("balance").asLong();
    }

    private static String code(String body) {
        JsonNode code = SystemClient.JSON.readTree(body).get("code");
        return code == null ? null : code.asString();
    }

    @Test
    void depositBurstWhenFarBeyondCapacityThenOnly200Or503Or504AndBalancesEqualAcknowledgedDeposits() throws Exception {
        List<String> tokens = new ArrayList<>();
        Map<String, Long> before = new HashMap<>();
        for (int u = 0; u < USERS; u++) {
            String token = client.userToken("user%04d".formatted(41 + u));
            tokens.add(token);
            before.put(token, balance(token)); // mints the user's document first
        }
        ExecutorService burst = Executors.newFixedThreadPool(BURST);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < BURST; i++) {
                String token = tokens.get(i % USERS);
                long amount = i + 1;
                answers.add(burst.submit(() -> deposit(token, amount, Map.of())));
            }
            Map<String, Long> acknowledged = new HashMap<>();
            Map<Integer, Integer> statuses = new HashMap<>();
            for (int i = 0; i < BURST; i++) {
                HttpResponse<String> answer = answers.get(i).get(60, TimeUnit.SECONDS);
                statuses.merge(answer.statusCode(), 1, Integer::sum);
                assertThat(answer.statusCode()).as(answer.body()).isIn(200, 503, 504);
                switch (answer.statusCode()) {
                    case 200 -> acknowledged.merge(tokens.get(i % USERS), (long) i + 1, Long::sum);
                    case 503 -> {
                        assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
                        assertThat(code(answer.body())).isEqualTo("OVERLOADED");
                    }
                    default -> assertThat(code(answer.body())).isEqualTo("DEADLINE_EXCEEDED");
                }
            }
            assertThat(statuses.get(503)).as("statuses %s", statuses).isPositive();
            assertThat(statuses.get(200)).as("statuses %s", statuses).isPositive();
            for (String token : tokens) {
                assertThat(balance(token) - before.get(token))
                        .as("statuses %s", statuses)
                        .isEqualTo(acknowledged.getOrDefault(token, 0L));
            }
        } finally {
            burst.shutdownNow();
            burst.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void depositWhenNoTimeLeftThen504DeadlineExceededAndBalanceUnchanged() throws Exception {
        String token = client.userToken("user0047");
        long start = balance(token);

        HttpResponse<String> answer = deposit(token, 5, Map.of("Spiffeidt-Timeout-Ms", "1"));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(504);
        assertThat(code(answer.body())).isEqualTo("DEADLINE_EXCEEDED");
        assertThat(balance(token)).isEqualTo(start);
    }

    @Test
    void internalEndpointWhenDeadlineHeaderZeroOrMalformedThen504Or400BeforeAnyWork() {
        URI target = stack.mtlsUrl("target-wl").resolve("/" + MODE + "/deposit");
        String body = "{\"token\":\"x\",\"amount\":1}";
        Answer expired = SystemClient.send(
                target,
                "POST",
                "application/json",
                body,
                Map.of("Spiffeidt-Timeout-Ms", "0"),
                client.sslContextFor("m-tier"));
        Answer malformed = SystemClient.send(
                target,
                "POST",
                "application/json",
                body,
                Map.of("Spiffeidt-Timeout-Ms", "soon"),
                client.sslContextFor("m-tier"));

        assertThat(expired.status()).as(expired.body()).isEqualTo(504);
        assertThat(code(expired.body())).isEqualTo("DEADLINE_EXCEEDED");
        assertThat(malformed.status()).as(malformed.body()).isEqualTo(400);
        assertThat(code(malformed.body())).isEqualTo("MALFORMED");
        // refused for the header, before the (unusable) body was read
        assertThat(malformed.json().get("detail").asString()).contains("Spiffeidt-Timeout-Ms");
    }
}
