package io.spiffeidt.core.idmode;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away X.509 PKI for tests: P-256 CAs (root and intermediate) issuing SPIFFE X.509-SVID
 * leaves, and the deliberately wrong certificates the negative tests need. Built with
 * BouncyCastle (never registered as a global provider).
 */
final class TestPki {

    static final Provider BC = new BouncyCastleProvider();
    static final Instant NOT_BEFORE = Instant.parse("2020-01-01T00:00:00Z");
    static final Instant NOT_AFTER = Instant.parse("2040-01-01T00:00:00Z");

    private static final AtomicLong SERIAL = new AtomicLong(1000);

    private TestPki() {}

    /** A CA: its key pair, certificate and the chain above it (intermediates), leaf-side first. */
    record Ca(String trustDomain, KeyPair keys, X509Certificate cert, List<X509Certificate> parents) {

        TrustBundle bundle() {
            X509Certificate root = parents.isEmpty() ? cert : parents.get(parents.size() - 1);
            return new TrustBundle(trustDomain, List.of(root));
        }

        /** An intermediate CA under this one. */
        Ca intermediate() {
            KeyPair kp = ecKeyPair();
            X509Certificate c = issue(this, kp, "intermediate", null, true, NOT_BEFORE, NOT_AFTER);
            List<X509Certificate> up = new ArrayList<>();
            up.add(cert);
            up.addAll(parents);
            return new Ca(trustDomain, kp, c, List.copyOf(up));
        }

        /** A valid SPIFFE leaf for {@code path} with a fresh P-256 key. */
        IdModeCredentials leaf(String path) {
            return credentials(ecKeyPair(), id(path), false, NOT_BEFORE, NOT_AFTER);
        }

        /** A leaf with every choice open. */
        IdModeCredentials credentials(KeyPair kp, SpiffeId san, boolean isCa, Instant notBefore, Instant notAfter) {
            X509Certificate leaf = issue(this, kp, "leaf", san, isCa, notBefore, notAfter);
            return IdModeCredentials.of(kp.getPrivate(), chainFor(leaf));
        }

        /** The certificate chain of {@code leaf} issued by this CA: leaf, this CA (if not a root), parents. */
        List<X509Certificate> chainFor(X509Certificate leaf) {
            List<X509Certificate> chain = new ArrayList<>();
            chain.add(leaf);
            if (!parents.isEmpty()) {
                chain.add(cert);
                chain.addAll(parents.subList(0, parents.size() - 1));
            }
            return List.copyOf(chain);
        }

        SpiffeId id(String path) {
            return SpiffeId.parse("spiffe://" + trustDomain + "/" + path);
        }
    }

    /** A self-signed root CA for {@code trustDomain}. */
    static Ca newCa(String trustDomain) {
        KeyPair kp = ecKeyPair();
        X509Certificate cert = issue(null, kp, "root " + trustDomain, null, true, NOT_BEFORE, NOT_AFTER);
        return new Ca(trustDomain, kp, cert, List.of());
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

    static KeyPair keyPair(String algorithm, Object spec) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm, BC);
            if (spec instanceof Integer bits) {
                g.initialize(bits);
            } else {
                g.initialize((java.security.spec.AlgorithmParameterSpec) spec);
            }
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Issues a certificate for {@code subject} by {@code issuer} (or self-signed when {@code
     * issuer} is null). A CA gets keyCertSign/cRLSign; a leaf digitalSignature and the URI SAN.
     */
    static X509Certificate issue(
            Ca issuer, KeyPair subject, String cn, SpiffeId san, boolean isCa, Instant notBefore, Instant notAfter) {
        try {
            X500Name subjectName = new X500Name("O=spiffeidt tests,CN=" + cn);
            X500Name issuerName = issuer == null
                    ? subjectName
                    : X500Name.getInstance(
                            issuer.cert().getSubjectX500Principal().getEncoded());
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    issuerName,
                    BigInteger.valueOf(SERIAL.incrementAndGet()),
                    Date.from(notBefore),
                    Date.from(notAfter),
                    subjectName,
                    subject.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            b.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(isCa ? KeyUsage.keyCertSign | KeyUsage.cRLSign : KeyUsage.digitalSignature));
            if (san != null) {
                b.addExtension(
                        Extension.subjectAlternativeName,
                        false,
                        new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, san.toString())));
            }
            KeyPair signer = issuer == null ? subject : issuer.keys();
            String alg = "EC".equals(signer.getPrivate().getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(b.build(
                            new JcaContentSignerBuilder(alg).setProvider(BC).build(signer.getPrivate())));
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
