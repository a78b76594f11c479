package io.spiffeidt.core.internal;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.testkit.TestPki;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chain validation of {@link X509Svids#validate} with intermediates: the SVID-shaped chains that
 * {@link SvidChains} validates itself get the verdict the JDK's PKIX validator gives them (each
 * scenario asserts both), with the verifier's provider or the JDK's list.
 */
class X509SvidsChainTests {

    private static final AtomicLong SERIAL = new AtomicLong(5000);
    private static final Instant AT = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant NOT_BEFORE = Instant.parse("2020-01-01T00:00:00Z");
    private static final Instant NOT_AFTER = Instant.parse("2040-01-01T00:00:00Z");
    private static final String TD = "example.org";
    private static final String LEAF_ID = "spiffe://example.org/wl";

    private final KeyPair rootKeys = TestPki.ecKeyPair();
    private final X509Certificate root = cert("root", rootKeys, "root", rootKeys, Ca.ROOT, NOT_AFTER, null);
    private final TrustBundle bundle = new TrustBundle(TD, List.of(root));

    /** How a test certificate is marked: leaf, CA with optional path length, or a broken CA. */
    private record Ca(boolean ca, Integer pathLen, int keyUsage, boolean unknownCritical) {
        static final Ca ROOT = new Ca(true, null, KeyUsage.keyCertSign | KeyUsage.cRLSign, false);
        static final Ca LEAF = new Ca(false, null, KeyUsage.digitalSignature, false);

        static Ca pathLen(int n) {
            return new Ca(true, n, KeyUsage.keyCertSign | KeyUsage.cRLSign, false);
        }
    }

    @Test
    void p256KeyInfoWhenUsualP256KeyThenTheCertificatesKeyInfoElseNull() throws Exception {
        KeyPair leaf = TestPki.ecKeyPair();
        X509Certificate ec = cert("root", rootKeys, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID);
        byte[] der = org.bouncycastle.asn1.x509.Certificate.getInstance(ec.getEncoded())
                .getSubjectPublicKeyInfo()
                .getEncoded(org.bouncycastle.asn1.ASN1Encoding.DER);

        assertThat(X509Svids.p256KeyInfo(ec.getEncoded()))
                .isEqualTo(der)
                .isEqualTo(leaf.getPublic().getEncoded());

        KeyPair p384 = TestPki.keyPair("EC", new java.security.spec.ECGenParameterSpec("secp384r1"));
        X509Certificate other = cert("root", rootKeys, "leaf", p384, Ca.LEAF, NOT_AFTER, LEAF_ID);
        assertThat(X509Svids.p256KeyInfo(other.getEncoded())).isNull();
        byte[] truncated = java.util.Arrays.copyOf(ec.getEncoded(), 200);
        assertThat(X509Svids.p256KeyInfo(truncated)).isNull();
        assertThat(X509Svids.p256KeyInfo(new byte[] {0x30, (byte) 0x80, 0x30, 0x00}))
                .isNull();
    }

    @Test
    void validateWithAnchorsWhenRootKeysTranslatedThenSameVerdicts() {
        KeyPair leaf = TestPki.ecKeyPair();
        KeyPair rogue = TestPki.ecKeyPair();
        X509Svids.Anchors anchors = X509Svids.Anchors.of(bundle, TestPki.BC);
        List<X509Certificate> good = List.of(cert("root", rootKeys, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID));
        // the root's name, another key
        List<X509Certificate> bad = List.of(cert("root", rogue, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID));

        assertThat(anchors.rootKeys()).hasSize(1);
        // BouncyCastle's own key object for the root's key: the same point
        assertThat(((java.security.interfaces.ECPublicKey) anchors.rootKeys().get(0)).getW())
                .isEqualTo(((java.security.interfaces.ECPublicKey) root.getPublicKey()).getW());
        assertThat(X509Svids.validate(good, anchors, AT, 0)).hasToString(LEAF_ID);
        assertThatAssertion(() -> X509Svids.validate(bad, anchors, AT, 0)).hasCode(ErrorCode.UNTRUSTED_KEY);
        assertThatAssertion(() -> X509Svids.validate(bad, bundle, AT, 0, TestPki.BC))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = "bc")
    void validateWhenIntermediatesChainToTheBundleThenLeafId(String providerName) {
        Provider provider = providerName == null ? null : TestPki.BC;
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair i2 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i2", i2, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("i1", i1, "i2", i2, Ca.ROOT, NOT_AFTER, null),
                cert("root", rootKeys, "i1", i1, Ca.ROOT, NOT_AFTER, null));

        assertThat(SvidChains.covers(chain, bundle)).isTrue();
        assertThat(X509Svids.validate(chain, bundle, AT, 0, provider)).hasToString(LEAF_ID);
        assertThatCode(() -> X509Svids.pkix(chain, bundle, Date.from(AT))).doesNotThrowAnyException();
    }

    @Test
    void validateWhenIntermediateIsNotCaThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i1", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", rootKeys, "i1", i1, new Ca(false, null, KeyUsage.keyCertSign, false), NOT_AFTER, null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenIntermediateMayNotSignCertificatesThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i1", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", rootKeys, "i1", i1, new Ca(true, null, KeyUsage.cRLSign, false), NOT_AFTER, null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenPathLengthExceededThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair i2 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i2", i2, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("i1", i1, "i2", i2, Ca.ROOT, NOT_AFTER, null),
                cert("root", rootKeys, "i1", i1, Ca.pathLen(0), NOT_AFTER, null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenPathLengthZeroIntermediateSignsLeafThenLeafId() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i1", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", rootKeys, "i1", i1, Ca.pathLen(0), NOT_AFTER, null));

        assertThat(X509Svids.validate(chain, bundle, AT, 0, TestPki.BC)).hasToString(LEAF_ID);
        assertThatCode(() -> X509Svids.pkix(chain, bundle, Date.from(AT))).doesNotThrowAnyException();
    }

    @Test
    void validateWhenIntermediateExpiredThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i1", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", rootKeys, "i1", i1, Ca.ROOT, AT.minusSeconds(1), null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenIssuerNameDoesNotChainThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("another", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", rootKeys, "i1", i1, Ca.ROOT, NOT_AFTER, null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenIntermediateSignedByAnotherKeyThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i1", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", TestPki.ecKeyPair(), "i1", i1, Ca.ROOT, NOT_AFTER, null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenLeafSignedByAnotherKeyThenUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        X509Certificate forged = cert("i1", TestPki.ecKeyPair(), "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID);
        List<X509Certificate> chain = List.of(forged, cert("root", rootKeys, "i1", i1, Ca.ROOT, NOT_AFTER, null));

        assertRejectedLikePkix(chain);
    }

    @Test
    void validateWhenUnknownCriticalExtensionThenLeftToPkixAndUntrusted() {
        KeyPair i1 = TestPki.ecKeyPair();
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(
                cert("i1", i1, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID),
                cert("root", rootKeys, "i1", i1, new Ca(true, null, KeyUsage.keyCertSign, true), NOT_AFTER, null));

        assertThat(SvidChains.covers(chain, bundle)).isFalse();
        assertRejected(chain);
    }

    @Test
    void validateWhenRsaRootBelowMinimumThenLeftToPkix() {
        KeyPair weak = TestPki.rsaKeyPair(1024);
        X509Certificate weakRoot = cert("weak", weak, "weak", weak, Ca.ROOT, NOT_AFTER, null);
        KeyPair leaf = TestPki.ecKeyPair();
        List<X509Certificate> chain = List.of(cert("weak", weak, "leaf", leaf, Ca.LEAF, NOT_AFTER, LEAF_ID));

        assertThat(SvidChains.covers(chain, new TrustBundle(TD, List.of(weakRoot))))
                .isFalse();
    }

    /** Rejected by {@link SvidChains} itself, and by the JDK's validator too. */
    private void assertRejectedLikePkix(List<X509Certificate> chain) {
        assertThat(SvidChains.covers(chain, bundle)).isTrue();
        assertRejected(chain);
    }

    private void assertRejected(List<X509Certificate> chain) {
        assertThatAssertion(() -> X509Svids.validate(chain, bundle, AT, 0, TestPki.BC))
                .hasCode(ErrorCode.UNTRUSTED_KEY);
        assertThatAssertion(() -> X509Svids.validate(chain, bundle, AT, 0)).hasCode(ErrorCode.UNTRUSTED_KEY);
        assertThatThrownBy(() -> X509Svids.pkix(chain, bundle, Date.from(AT)))
                .isInstanceOf(GeneralSecurityException.class);
    }

    /** A certificate named {@code CN=subject} issued by {@code CN=issuer} with {@code issuerKeys}. */
    private static X509Certificate cert(
            String issuer,
            KeyPair issuerKeys,
            String subject,
            KeyPair subjectKeys,
            Ca ca,
            Instant notAfter,
            String uri) {
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                    new X500Name("O=spiffeidt tests,CN=" + issuer),
                    BigInteger.valueOf(SERIAL.incrementAndGet()),
                    Date.from(NOT_BEFORE),
                    Date.from(notAfter),
                    new X500Name("O=spiffeidt tests,CN=" + subject),
                    subjectKeys.getPublic());
            b.addExtension(
                    Extension.basicConstraints,
                    true,
                    ca.ca() && ca.pathLen() != null
                            ? new BasicConstraints(ca.pathLen())
                            : new BasicConstraints(ca.ca()));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(ca.keyUsage()));
            if (uri != null) {
                b.addExtension(
                        Extension.subjectAlternativeName,
                        false,
                        new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, uri)));
            }
            if (ca.unknownCritical()) {
                b.addExtension(new ASN1ObjectIdentifier("1.3.6.1.4.1.55555.1"), true, DERNull.INSTANCE);
            }
            String alg = "EC".equals(issuerKeys.getPrivate().getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder(alg)
                            .setProvider(TestPki.BC)
                            .build(issuerKeys.getPrivate())));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
