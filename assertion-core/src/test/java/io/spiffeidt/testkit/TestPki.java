package io.spiffeidt.testkit;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.security.spec.AlgorithmParameterSpec;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away SPIFFE X.509 PKI for tests, in memory: one instance is one CA (a self-signed root of
 * a trust domain, or an intermediate under another instance) that issues X.509-SVIDs with P-256
 * keys, plus the deliberately odd certificates negative tests need (CA leaves, other key types,
 * chosen validity). BouncyCastle builds the certificates; it is never registered as a global
 * provider.
 *
 * <p>Leaves look like SPIRE's: CA=false, digitalSignature, serverAuth and clientAuth, the SPIFFE ID
 * as the only URI SAN, subject and authority key identifiers. CAs carry keyCertSign/cRLSign and
 * the trust domain's URI SAN.
 */
public final class TestPki {

    /** The provider the kit signs with; tests may pass it to the code under test. */
    public static final Provider BC = new BouncyCastleProvider();

    /** Default validity of every certificate: wide enough for any fixed test clock. */
    public static final Instant NOT_BEFORE = Instant.parse("2020-01-01T00:00:00Z");

    public static final Instant NOT_AFTER = Instant.parse("2040-01-01T00:00:00Z");

    private static final AtomicLong SERIAL = new AtomicLong(1000);

    /** An X.509-SVID: its SPIFFE ID, its chain (leaf first, without the root) and its private key. */
    public record Svid(SpiffeId id, List<X509Certificate> chain, PrivateKey privateKey) {

        public Svid {
            Objects.requireNonNull(id, "id");
            chain = List.copyOf(chain);
            Objects.requireNonNull(privateKey, "privateKey");
        }

        public X509Certificate leaf() {
            return chain.get(0);
        }
    }

    private final String trustDomain;
    private final KeyPair keys;
    private final X509Certificate cert;
    private final List<X509Certificate> parents;
    private final Instant notBefore;
    private final Instant notAfter;

    private TestPki(
            String trustDomain,
            KeyPair keys,
            X509Certificate cert,
            List<X509Certificate> parents,
            Instant notBefore,
            Instant notAfter) {
        this.trustDomain = trustDomain;
        this.keys = keys;
        this.cert = cert;
        this.parents = List.copyOf(parents);
        this.notBefore = notBefore;
        this.notAfter = notAfter;
    }

    /** A root CA for {@code trustDomain}, valid from {@link #NOT_BEFORE} to {@link #NOT_AFTER}. */
    public static TestPki newCa(String trustDomain) {
        return newCa(trustDomain, NOT_BEFORE, NOT_AFTER);
    }

    /** A root CA for {@code trustDomain} with its own validity (which its leaves inherit by default). */
    public static TestPki newCa(String trustDomain, Instant notBefore, Instant notAfter) {
        KeyPair kp = ecKeyPair();
        TestPki self = new TestPki(trustDomain, kp, null, List.of(), notBefore, notAfter);
        X509Certificate root =
                self.sign(null, kp, "root " + trustDomain, "spiffe://" + trustDomain, true, notBefore, notAfter);
        return new TestPki(trustDomain, kp, root, List.of(), notBefore, notAfter);
    }

    /** An intermediate CA under this one, same trust domain and validity. */
    public TestPki intermediate() {
        KeyPair kp = ecKeyPair();
        X509Certificate c = sign(this, kp, "intermediate", "spiffe://" + trustDomain, true, notBefore, notAfter);
        List<X509Certificate> up = new ArrayList<>();
        up.add(cert);
        up.addAll(parents);
        return new TestPki(trustDomain, kp, c, up, notBefore, notAfter);
    }

    public String trustDomain() {
        return trustDomain;
    }

    /** This CA's key pair. */
    public KeyPair keys() {
        return keys;
    }

    /** This CA's certificate. */
    public X509Certificate cert() {
        return cert;
    }

    /** The root certificate this CA chains to (itself when it is a root). */
    public X509Certificate rootCertificate() {
        return parents.isEmpty() ? cert : parents.get(parents.size() - 1);
    }

    /** The trust bundle of this CA's trust domain: its root certificate. */
    public TrustBundle bundle() {
        return new TrustBundle(trustDomain, List.of(rootCertificate()));
    }

    /** {@code spiffe://<trust domain>/<path>}; a leading {@code /} in {@code path} is allowed. */
    public SpiffeId id(String path) {
        return SpiffeId.parse("spiffe://" + trustDomain + (path.startsWith("/") ? path : "/" + path));
    }

    /** An SVID for {@link #id(String) id(path)} with a fresh P-256 key, valid as long as this CA. */
    public Svid issue(String path) {
        return issue(path, notBefore, notAfter);
    }

    /** An SVID for {@link #id(String) id(path)} with a fresh P-256 key and its own validity. */
    public Svid issue(String path, Instant leafNotBefore, Instant leafNotAfter) {
        return issue(ecKeyPair(), id(path), false, leafNotBefore, leafNotAfter);
    }

    /** An SVID with every choice open: any key pair (EC or RSA), any SAN, even CA=true. */
    public Svid issue(KeyPair subject, SpiffeId san, boolean isCa, Instant leafNotBefore, Instant leafNotAfter) {
        X509Certificate leaf = certificate(subject, "leaf", san, isCa, leafNotBefore, leafNotAfter);
        return new Svid(san, chainFor(leaf), subject.getPrivate());
    }

    /** A certificate for {@code subject} issued by this CA; {@code san} may be null (no URI SAN). */
    public X509Certificate certificate(
            KeyPair subject, String cn, SpiffeId san, boolean isCa, Instant certNotBefore, Instant certNotAfter) {
        return sign(this, subject, cn, san == null ? null : san.toString(), isCa, certNotBefore, certNotAfter);
    }

    /** The chain of a {@code leaf} this CA issued: the leaf, then the CAs below the root. */
    public List<X509Certificate> chainFor(X509Certificate leaf) {
        List<X509Certificate> chain = new ArrayList<>();
        chain.add(leaf);
        if (!parents.isEmpty()) {
            chain.add(cert);
            chain.addAll(parents.subList(0, parents.size() - 1));
        }
        return List.copyOf(chain);
    }

    /** A fresh P-256 key pair. */
    public static KeyPair ecKeyPair() {
        return keyPair("EC", new ECGenParameterSpec("secp256r1"));
    }

    /** A fresh key pair of {@code algorithm} ({@code "RSA"}, {@code "EC"}, ...) with BouncyCastle. */
    public static KeyPair keyPair(String algorithm, AlgorithmParameterSpec spec) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm, BC);
            g.initialize(spec);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fresh RSA key pair of {@code bits}. */
    public static KeyPair rsaKeyPair(int bits) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", BC);
            g.initialize(bits);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private X509Certificate sign(
            TestPki issuer,
            KeyPair subject,
            String cn,
            String uriSan,
            boolean isCa,
            Instant certNotBefore,
            Instant certNotAfter) {
        try {
            X500Name subjectName = new X500Name("O=spiffeidt tests,CN=" + cn);
            X500Name issuerName = issuer == null
                    ? subjectName
                    : X500Name.getInstance(issuer.cert.getSubjectX500Principal().getEncoded());
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    issuerName,
                    BigInteger.valueOf(SERIAL.incrementAndGet()),
                    Date.from(certNotBefore),
                    Date.from(certNotAfter),
                    subjectName,
                    subject.getPublic());
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            b.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(isCa ? KeyUsage.keyCertSign | KeyUsage.cRLSign : KeyUsage.digitalSignature));
            if (!isCa) {
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }));
            }
            b.addExtension(
                    Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(subject.getPublic()));
            if (issuer != null) {
                b.addExtension(
                        Extension.authorityKeyIdentifier,
                        false,
                        utils.createAuthorityKeyIdentifier(issuer.keys.getPublic()));
            }
            if (uriSan != null) {
                b.addExtension(
                        Extension.subjectAlternativeName,
                        false,
                        new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, uriSan)));
            }
            KeyPair signer = issuer == null ? subject : issuer.keys;
            String alg = "EC".equals(signer.getPrivate().getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(b.build(
                            new JcaContentSignerBuilder(alg).setProvider(BC).build(signer.getPrivate())));
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
