package io.spiffeidt.support.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.problem.ProblemDetailsAdvice;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * What a caller of the next tier answers when that tier is out of reach, against real sockets: 503
 * (with {@code Retry-After}) when nothing came back, connection refused, a connection closed before an
 * answer, or the tier's own 503 {@code UPSTREAM_UNAVAILABLE} (its peer was out of reach); 502 when the
 * tier answered something unusable, or its own 502. So a tier that dies under load gives fast 503s
 * all the way up, which a client retries (deploy/fault-it).
 */
class DownstreamClientUnreachableTests {

    private HttpServer server;
    private ServerSocket closing;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.stop(0);
        }
        if (closing != null) {
            closing.close();
        }
    }

    private int answering(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", (HttpExchange exchange) -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server.getAddress().getPort();
    }

    private AssertionException failure(int port) {
        // as the workloads' clients: Apache HttpClient 5 without automatic retries
        RestClient rest = RestClient.builder()
                .baseUrl("http://127.0.0.1:" + port)
                .requestFactory(new HttpComponentsClientHttpRequestFactory(
                        HttpClients.custom().disableAutomaticRetries().build()))
                .build();
        DownstreamClient client = OverRestClient.client(Mode.LSVID, Role.M_TIER, rest);
        AssertionException e = catchThrowableOfType(
                AssertionException.class,
                () -> client.post(Operation.MTIER_CALL, "/lsvid/deposit", "{}", String.class));
        assertThat(e).isNotNull();
        assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
        return e;
    }

    @Test
    void postWhenTheTierAnswers503UpstreamUnavailableThenRelayedAs503WithRetryAfter() throws IOException {
        int port = answering(
                503, "{\"status\":503,\"code\":\"UPSTREAM_UNAVAILABLE\",\"detail\":\"target-wl unavailable\"}");

        AssertionException e = failure(port);

        assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(503);
        ResponseEntity<?> answer = new ProblemDetailsAdvice().assertion(e);
        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("Retry-After")).isNotBlank();
    }

    @Test
    void postWhenTheTierAnswers502UpstreamUnavailableThenStays502() throws IOException {
        int port = answering(502, "{\"status\":502,\"code\":\"UPSTREAM_UNAVAILABLE\"}");

        AssertionException e = failure(port);

        assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(502);
        assertThat(new ProblemDetailsAdvice().assertion(e).getHeaders().getFirst("Retry-After"))
                .isNull();
    }

    @Test
    void postWhenTheTierAnswers500WithoutCodeThen502() throws IOException {
        int port = answering(500, "{\"status\":500}");

        assertThat(ProblemDetailsAdvice.status(failure(port))).isEqualTo(502);
    }

    @Test
    void postWhenNothingListensThen503() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }

        assertThat(ProblemDetailsAdvice.status(failure(port))).isEqualTo(503);
    }

    @Test
    void postWhenTheTierClosesTheConnectionBeforeAnsweringThen503() throws IOException {
        // a process killed with the request in hand: the kernel closes its socket, no answer comes
        closing = new ServerSocket(0);
        Thread acceptor = new Thread(() -> {
            while (!closing.isClosed()) {
                try (Socket s = closing.accept()) {
                    InputStream in = s.getInputStream();
                    in.read(new byte[8192]);
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();

        assertThat(ProblemDetailsAdvice.status(failure(closing.getLocalPort()))).isEqualTo(503);
    }
}
