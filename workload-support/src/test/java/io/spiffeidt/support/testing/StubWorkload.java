package io.spiffeidt.support.testing;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.identity.SpiffeTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A stand-in for a neighbouring workload in a module test: a real SPIFFE mTLS server (TLS 1.3,
 * client SVID required, any peer of the trust domain) on loopback, answering JSON per path from a
 * handler and recording every request it received, with the peer's certificate.
 */
public final class StubWorkload implements AutoCloseable {

    /** One received request. */
    public record Received(String path, SpiffeId peer, X509Certificate peerLeaf, String body) {}

    /** One answer: an HTTP status and a JSON body. */
    public record Reply(int status, String json) {
        /** A 200 answer. */
        public static Reply ok(String json) {
            return new Reply(200, json);
        }
    }

    private final HttpsServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();

    /** Serves the SVID of {@code source} on a random loopback port. */
    public StubWorkload(X509Source source) throws IOException {
        SSLContext context = SpiffeTls.serverContext(source, TestIdentities.TRUST_DOMAIN);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters ssl = context.getDefaultSSLParameters();
                ssl.setNeedClientAuth(true);
                ssl.setProtocols(new String[] {SpiffeTls.TLS_1_3});
                params.setSSLParameters(ssl);
            }
        });
        server.start();
    }

    /** Answers requests to {@code path} with {@code handler}, given what was received. */
    public StubWorkload on(String path, Function<Received, Reply> handler) {
        server.createContext(path, exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            X509Certificate leaf =
                    (X509Certificate) ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0];
            Received request = new Received(path, SpiffeId.fromX509Svid(leaf), leaf, body);
            received.add(request);
            Reply reply = handler.apply(request);
            byte[] answer = reply.json().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders()
                    .add("Content-Type", reply.status() < 400 ? "application/json" : "application/problem+json");
            exchange.sendResponseHeaders(reply.status(), answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        return this;
    }

    /** Every request received so far, in order. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** The base URL. */
    public URI uri() {
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
