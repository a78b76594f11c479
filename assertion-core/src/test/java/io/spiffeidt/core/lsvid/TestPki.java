package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A generated SPIFFE test PKI: one P-256 CA per trust domain and X.509-SVID leaves it issues. */
final class TestPki {

    static final Provider BC = new BouncyCastleProvider();

    private static final AtomicLong SERIAL = new AtomicLong(1000);

    /** A workload's SVID: its ID, chain (leaf first) and private key. */
    record Workload(SpiffeId id, List<X509Certificate> chain, PrivateKey key) {
        X509Certificate leaf() {
            return chain.get(0);
        }

        Presenter presenter() {
            return Presenter.of(leaf());
        }
    }

    private final String trustDomain;
    private final X509Certificate caCert;
    private final PrivateKey caKey;
    private final Instant notBefore;
    private final Instant notAfter;

    private TestPki(String trustDomain, X509Certificate caCert, PrivateKey caKey, Instant notBefore, Instant notAfter) {
        this.trustDomain = trustDomain;
        this.caCert = caCert;
        this.caKey = caKey;
        this.notBefore = notBefore;
        this.notAfter = notAfter;
    }

    /** A CA for {@code trustDomain} valid from {@code notBefore} to {@code notAfter}. */
    static TestPki create(String trustDomain, Instant notBefore, Instant notAfter) {
        KeyPair ca = ecKeyPair();
        X500Name name = new X500Name("O=spiffeidt tests,CN=" + trustDomain + " test CA");
        X509Certificate cert = sign(
                new JcaX509v3CertificateBuilder(
                        name,
                        BigInteger.valueOf(SERIAL.incrementAndGet()),
                        Date.from(notBefore),
                        Date.from(notAfter),
                        name,
                        ca.getPublic()),
                ca.getPrivate(),
                true,
                "spiffe://" + trustDomain);
        return new TestPki(trustDomain, cert, ca.getPrivate(), notBefore, notAfter);
    }

    TrustBundle bundle() {
        return new TrustBundle(trustDomain, List.of(caCert));
    }

    /** A leaf for {@code spiffe://<trust domain><path>} valid as long as the CA. */
    Workload issue(String path) {
        return issue(path, notBefore, notAfter);
    }

    /** A leaf for {@code spiffe://<trust domain><path>} with its own validity. */
    Workload issue(String path, Instant leafNotBefore, Instant leafNotAfter) {
        KeyPair kp = ecKeyPair();
        SpiffeId id = SpiffeId.parse("spiffe://" + trustDomain + path);
        X509Certificate leaf = sign(
                new JcaX509v3CertificateBuilder(
                        X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded()),
                        BigInteger.valueOf(SERIAL.incrementAndGet()),
                        Date.from(leafNotBefore),
                        Date.from(leafNotAfter),
                        new X500Name("O=spiffeidt tests"),
                        kp.getPublic()),
                caKey,
                false,
                id.toString());
        return new Workload(id, List.of(leaf), kp.getPrivate());
    }

    static KeyPair ecKeyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC", BC);
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key, boolean ca, String uri) {
        try {
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            builder.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign : KeyUsage.digitalSignature));
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, uri)));
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA")
                    .setProvider(BC)
                    .build(key);
            X509CertificateHolder holder = builder.build(signer);
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(holder.getEncoded()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
