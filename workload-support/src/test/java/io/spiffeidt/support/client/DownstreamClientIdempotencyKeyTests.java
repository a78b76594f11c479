package io.spiffeidt.support.client;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/**
 * A deposit's {@code Idempotency-Key} on the way to the next tier, against a real HTTP server: the
 * client sends it as the sf-string it was given, sends none when there is none, and relays the
 * downstream's 422 {@code IDEMPOTENCY_KEY_MISMATCH} with its code.
 */
class DownstreamClientIdempotencyKeyTests {

    private final List<Optional<String>> receivedKeys = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private volatile int status = 200;
    private volatile String answer = "{\"ok\":true}";

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        receivedKeys.add(Optional.ofNullable(exchange.getRequestHeaders().getFirst(IdempotencyKey.HEADER)));
        byte[] body = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders()
                .add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private DownstreamClient client() {
        RestClient rest =
                RestClient.create("http://127.0.0.1:" + server.getAddress().getPort());
        return OverRestClient.client(Mode.LSVID, Role.TARGET_WL, rest);
    }

    @Test
    void postWhenKeyGivenThenSentAsTheSameStructuredFieldString() {
        IdempotencyKey key = IdempotencyKey.parse("\"retry \\\"me\\\"\"").orElseThrow();

        client().post(Operation.TARGET_CALL, "/lsvid/deposit", "{}", String.class, Optional.of(key));

        assertThat(receivedKeys).containsExactly(Optional.of("\"retry \\\"me\\\"\""));
    }

    @Test
    void postWhenNoKeyThenNoHeader() {
        client().post(Operation.TARGET_CALL, "/lsvid/deposit", "{}", String.class, Optional.empty());
        client().post(Operation.TARGET_CALL, "/lsvid/balance", "{}", String.class);

        assertThat(receivedKeys).containsExactly(Optional.empty(), Optional.empty());
    }

    @Test
    void postWhenTheDownstreamAnswersKeyMismatchThenRelayedWithItsCode() {
        status = 422;
        answer = "{\"status\":422,\"code\":\"IDEMPOTENCY_KEY_MISMATCH\","
                + "\"detail\":\"Idempotency-Key was already used for a different deposit\"}";
        Optional<IdempotencyKey> key = Optional.of(new IdempotencyKey("k-1"));

        assertThatAssertion(() -> client().post(Operation.TARGET_CALL, "/lsvid/deposit", "{}", String.class, key))
                .hasCode(ErrorCode.IDEMPOTENCY_KEY_MISMATCH);
    }
}
