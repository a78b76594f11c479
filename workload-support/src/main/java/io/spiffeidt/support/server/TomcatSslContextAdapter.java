package io.spiffeidt.support.server;

import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509KeyManager;

/**
 * Lets Tomcat serve an already initialized javax {@link SSLContext} (the SPIFFE server context):
 * registered on {@code SSLHostConfigCertificate.setSslContext}. Not API.
 *
 * <p>Thread safety: thread safe (delegates).
 */
public final class TomcatSslContextAdapter implements org.apache.tomcat.util.net.SSLContext {

    private final SSLContext delegate;
    private final X509KeyManager keyManager;

    /**
     * @param delegate the initialized context
     * @param keyManager its key manager (for {@link #getCertificateChain(String)})
     */
    public TomcatSslContextAdapter(SSLContext delegate, X509KeyManager keyManager) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.keyManager = keyManager;
    }

    @Override
    public void init(KeyManager[] kms, TrustManager[] tms, SecureRandom sr) {
        // already initialized with the SPIFFE key and trust managers
    }

    @Override
    public void destroy() {
        // the context holds no resources; the X.509 source is closed by its owner
    }

    @Override
    public SSLSessionContext getServerSessionContext() {
        return delegate.getServerSessionContext();
    }

    @Override
    public SSLEngine createSSLEngine() {
        return delegate.createSSLEngine();
    }

    @Override
    public SSLServerSocketFactory getServerSocketFactory() {
        return delegate.getServerSocketFactory();
    }

    @Override
    public SSLParameters getSupportedSSLParameters() {
        return delegate.getSupportedSSLParameters();
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return keyManager == null ? null : keyManager.getCertificateChain(alias);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
