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
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/** A JDK HTTPS server speaking SPIFFE mTLS; {@code POST /hello} answers {@code {"caller":"<peer ID>"}}. */
public final class TestMtlsServer implements AutoCloseable {

    private final HttpsServer server;

    /** Serves the SVID of {@code source} on a random loopback port. */
    public TestMtlsServer(X509Source source) throws IOException {
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
        server.createContext("/hello", exchange -> {
            exchange.getRequestBody().readAllBytes();
            X509Certificate leaf =
                    (X509Certificate) ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0];
            byte[] body = ("{\"caller\":\"" + SpiffeId.fromX509Svid(leaf) + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
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
