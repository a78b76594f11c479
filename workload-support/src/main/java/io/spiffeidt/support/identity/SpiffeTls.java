package io.spiffeidt.support.identity;

import io.spiffe.bundle.x509bundle.X509Bundle;
import io.spiffe.exception.BundleNotFoundException;
import io.spiffe.provider.SpiffeKeyManager;
import io.spiffe.provider.SpiffeSslContextFactory;
import io.spiffe.provider.SpiffeTrustManager;
import io.spiffe.provider.SpiffeVerificationException;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.SpiffeId;
import java.security.GeneralSecurityException;
import java.util.Objects;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;

/**
 * Builds the SPIFFE SSL contexts: TLS 1.3, key material read from the X.509 source on every
 * handshake (so SVID rotation is seen), peers checked against the source's bundles. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class SpiffeTls {

    /** The only protocol spoken. */
    public static final String TLS_1_3 = "TLSv1.3";

    private SpiffeTls() {}

    /** A client context that accepts exactly the server SPIFFE ID {@code expected}. */
    public static SSLContext clientContext(X509Source source, SpiffeId expected) {
        io.spiffe.spiffeid.SpiffeId id = io.spiffe.spiffeid.SpiffeId.parse(expected.toString());
        Set<io.spiffe.spiffeid.SpiffeId> accepted = Set.of(id);
        try {
            return SpiffeSslContextFactory.getSslContext(SpiffeSslContextFactory.SslContextOptions.builder()
                    .sslProtocol(TLS_1_3)
                    .x509Source(source)
                    .acceptedSpiffeIdsSupplier(() -> accepted)
                    .build());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the SPIFFE client SSL context", e);
        }
    }

    /**
     * A client context that presents exactly {@code presented} (whatever the source holds when a
     * handshake runs) and checks the server against the bundles of {@code trust}, accepting exactly
     * {@code expected}.
     */
    public static SSLContext clientContext(X509Svid presented, X509Source trust, SpiffeId expected) {
        return clientContext(new Presenting(presented, trust), expected);
    }

    /** An SVID that does not change, with the bundles of a live source. */
    private record Presenting(X509Svid svid, X509Source trust) implements X509Source {
        Presenting {
            Objects.requireNonNull(svid, "presented");
            Objects.requireNonNull(trust, "trust");
        }

        @Override
        public X509Svid getX509Svid() {
            return svid;
        }

        @Override
        public X509Bundle getBundleForTrustDomain(TrustDomain trustDomain) throws BundleNotFoundException {
            return trust.getBundleForTrustDomain(trustDomain);
        }

        @Override
        public void close() {
            // the trust source belongs to its owner
        }

        @Override
        public String toString() {
            return "Presenting[" + svid.getSpiffeId() + "]";
        }
    }

    /** A server context that accepts any client SPIFFE ID of {@code trustDomain}. */
    public static SSLContext serverContext(X509Source source, String trustDomain) {
        TrustDomain td = TrustDomain.parse(trustDomain);
        SpiffeTrustManager trustManager = new SpiffeTrustManager(source, (spiffeId, chain) -> {
            if (!spiffeId.memberOf(td)) {
                throw new SpiffeVerificationException("client SPIFFE ID not in trust domain " + td.getName());
            }
        });
        try {
            SSLContext context = SSLContext.getInstance(TLS_1_3);
            context.init(new KeyManager[] {new SpiffeKeyManager(source)}, new TrustManager[] {trustManager}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the SPIFFE server SSL context", e);
        }
    }
}
