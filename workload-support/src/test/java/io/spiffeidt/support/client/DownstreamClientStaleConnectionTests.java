package io.spiffeidt.support.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * A downstream that closed a kept-alive connection while the caller's pool still held it (a restart;
 * the stale check runs only after a connection was idle a while), against real sockets and the
 * workloads' HTTP client: the request that lands on it is sent once more on a new connection, unless
 * it is a deposit without an {@code Idempotency-Key}, which is never sent twice.
 */
class DownstreamClientStaleConnectionTests {

    /** Answers the first request of every connection, keeping it alive; closes it on the second. */
    private ServerSocket server;

    private final List<String> received = new CopyOnWriteArrayList<>();
    private CloseableHttpClient http;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0);
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread connection = new Thread(() -> serve(s));
                    connection.setDaemon(true);
                    connection.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        // as the workloads' pooled clients: keep-alive, no automatic retries
        http = HttpClients.custom().disableAutomaticRetries().build();
    }

    @AfterEach
    void stop() throws IOException {
        http.close();
        server.close();
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            int answered = 0;
            String request;
            while ((request = readRequest(in)) != null) {
                received.add(request);
                if (answered++ > 0) {
                    return; // closed with the request in hand, no answer
                }
                byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** The request line and whether it carried an Idempotency-Key; null at the end of the stream. */
    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                break;
            }
        }
        if (b < 0) {
            return null;
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        boolean keyed = false;
        for (String line : text.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
            keyed |= lower.startsWith("idempotency-key:");
        }
        in.readNBytes(length);
        return text.substring(0, text.indexOf("\r\n")) + (keyed ? " keyed" : "");
    }

    private DownstreamClient client() {
        RestClient rest = RestClient.builder()
                .baseUrl("http://127.0.0.1:" + server.getLocalPort())
                .requestFactory(new HttpComponentsClientHttpRequestFactory(http))
                .build();
        return OverRestClient.client(Mode.DVID, Role.ASSERTING_WL, rest);
    }

    @Test
    void postWhenThePooledConnectionWasClosedThenSentOnceMoreOnANewConnection() {
        DownstreamClient client = client();
        assertThat(client.post(Operation.MINT_CALL, "/dvid/mint", "{}", String.class))
                .contains("ok");

        String answer = client.post(Operation.MINT_CALL, "/dvid/mint", "{}", String.class);

        assertThat(answer).contains("ok");
        assertThat(received)
                .containsExactly("POST /dvid/mint HTTP/1.1", "POST /dvid/mint HTTP/1.1", "POST /dvid/mint HTTP/1.1");
    }

    @Test
    void depositWithoutIdempotencyKeyWhenTheConnectionWasClosedThenNotSentTwiceAnd503() {
        DownstreamClient client = client();
        client.post(Operation.TARGET_CALL, "/dvid/balance", "{}", String.class);

        AssertionException e = catchThrowableOfType(
                AssertionException.class,
                () -> client.post(Operation.TARGET_CALL, "/dvid/deposit", "{}", String.class));

        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
        assertThat(e.getMessage()).contains("NoHttpResponseException");
        assertThat(received).containsExactly("POST /dvid/balance HTTP/1.1", "POST /dvid/deposit HTTP/1.1");
    }

    @Test
    void depositWithIdempotencyKeyWhenTheConnectionWasClosedThenSentOnceMore() {
        DownstreamClient client = client();
        client.post(Operation.TARGET_CALL, "/dvid/balance", "{}", String.class);
        Optional<IdempotencyKey> key = IdempotencyKey.parse("\"deposit-1\"");

        String answer = client.post(Operation.TARGET_CALL, "/dvid/deposit", "{}", String.class, key);

        assertThat(answer).contains("ok");
        assertThat(received)
                .containsExactly(
                        "POST /dvid/balance HTTP/1.1",
                        "POST /dvid/deposit HTTP/1.1 keyed",
                        "POST /dvid/deposit HTTP/1.1 keyed");
    }

    @Test
    void repeatableWhenDepositWithoutKeyThenFalseAndOtherwiseTrue() {
        Optional<IdempotencyKey> key = IdempotencyKey.parse("\"k\"");

        assertThat(DownstreamClient.repeatable(HttpMethod.POST, "/lsvid/deposit", Optional.empty()))
                .isFalse();
        assertThat(DownstreamClient.repeatable(HttpMethod.POST, "/lsvid/deposit", key))
                .isTrue();
        assertThat(DownstreamClient.repeatable(HttpMethod.POST, "/lsvid/balance", Optional.empty()))
                .isTrue();
        assertThat(DownstreamClient.repeatable(HttpMethod.POST, "/txn-token/token", Optional.empty()))
                .isTrue();
        assertThat(DownstreamClient.repeatable(HttpMethod.GET, "/dvid/keys", Optional.empty()))
                .isTrue();
    }
}
