package io.spiffeidt.support.server;

import io.spiffe.provider.SpiffeKeyManager;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.support.identity.SpiffeTls;
import java.util.Objects;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.ProtocolHandler;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;

/**
 * Turns a Tomcat connector into a SPIFFE mTLS endpoint: TLS 1.3 only, the current SVID as server
 * certificate, a client SVID of the trust domain required, no limit on the requests per kept-alive
 * connection. Not API.
 *
 * <p>Thread safety: used once per connector at start-up.
 */
public final class SpiffeMtlsConnectorCustomizer implements TomcatConnectorCustomizer {

    private final X509Source source;
    private final String trustDomain;

    /** Serves SVIDs from {@code source}; accepts clients of {@code trustDomain}. */
    public SpiffeMtlsConnectorCustomizer(X509Source source, String trustDomain) {
        this.source = Objects.requireNonNull(source, "source");
        this.trustDomain = Objects.requireNonNull(trustDomain, "trustDomain");
    }

    @Override
    public void customize(Connector connector) {
        ProtocolHandler handler = connector.getProtocolHandler();
        if (!(handler instanceof AbstractHttp11Protocol<?> protocol)) {
            throw new IllegalStateException("SPIFFE mTLS needs an HTTP/1.1 Tomcat connector");
        }
        SSLHostConfig hostConfig = new SSLHostConfig();
        hostConfig.setProtocols(SpiffeTls.TLS_1_3);
        hostConfig.setSslProtocol(SpiffeTls.TLS_1_3);
        hostConfig.setCertificateVerification("required");
        SSLHostConfigCertificate certificate =
                new SSLHostConfigCertificate(hostConfig, SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setSslContext(new TomcatSslContextAdapter(
                SpiffeTls.serverContext(source, trustDomain), new SpiffeKeyManager(source)));
        hostConfig.addCertificate(certificate);
        protocol.addSslHostConfig(hostConfig);
        protocol.setSSLEnabled(true);
        // Tomcat closes a kept-alive connection after 100 requests by default: a pooled caller then
        // pays a full mutual TLS handshake every hundred calls (about 1 % of requests, and a tenth of
        // the CPU under load). The callers are authenticated workloads whose pools retire every
        // connection after DownstreamClients' time to live instead.
        protocol.setMaxKeepAliveRequests(-1);
        connector.setScheme("https");
        connector.setSecure(true);
    }
}
