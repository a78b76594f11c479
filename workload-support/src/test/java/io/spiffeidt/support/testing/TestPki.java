package io.spiffeidt.support.testing;

import io.spiffe.bundle.x509bundle.X509Bundle;
import io.spiffe.exception.X509SvidException;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.svid.x509svid.X509Svid;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A tiny test CA issuing SPIFFE X.509-SVIDs (EC P-256), built with BouncyCastle in memory. */
public final class TestPki {

    private static final BouncyCastleProvider BC = new BouncyCastleProvider();
    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    private final String trustDomain;
    private final KeyPair caKeys;
    private final X509Certificate caCert;

    /** A new CA for {@code trustDomain}. */
    public TestPki(String trustDomain) {
        this.trustDomain = trustDomain;
        this.caKeys = ecKeys();
        try {
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=test CA " + trustDomain + " " + SERIAL.incrementAndGet());
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    name,
                    BigInteger.valueOf(SERIAL.incrementAndGet()),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(1))),
                    name,
                    caKeys.getPublic());
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            builder.addExtension(
                    Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(caKeys.getPublic()));
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(
                            new GeneralName(GeneralName.uniformResourceIdentifier, "spiffe://" + trustDomain)));
            this.caCert = new JcaX509CertificateConverter().getCertificate(builder.build(signer(caKeys)));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The trust domain. */
    public String trustDomain() {
        return trustDomain;
    }

    /** The CA certificate. */
    public X509Certificate caCertificate() {
        return caCert;
    }

    /** The bundle holding this CA. */
    public X509Bundle bundle() {
        return new X509Bundle(TrustDomain.parse(trustDomain), Set.of(caCert));
    }

    /** Issues an SVID for {@code spiffeId} valid for one hour. */
    public X509Svid issue(String spiffeId) {
        return issue(spiffeId, ecKeys());
    }

    /**
     * Issues an SVID for {@code spiffeId} valid for one hour whose key is RSA 2048-bit (SPIRE's
     * {@code rsa-2048} workload key type); the CA stays EC.
     */
    public X509Svid issueRsa(String spiffeId) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return issue(spiffeId, generator.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private X509Svid issue(String spiffeId, KeyPair leafKeys) {
        try {
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    caCert,
                    BigInteger.valueOf(SERIAL.incrementAndGet()),
                    Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(Duration.ofHours(1))),
                    new X500Name("O=SPIRE"),
                    leafKeys.getPublic());
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(
                    Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
            }));
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(new GeneralName(GeneralName.uniformResourceIdentifier, spiffeId)));
            builder.addExtension(Extension.authorityKeyIdentifier, false, utils.createAuthorityKeyIdentifier(caCert));
            X509Certificate leaf = new JcaX509CertificateConverter().getCertificate(builder.build(signer(caKeys)));
            ByteArrayOutputStream chain = new ByteArrayOutputStream();
            chain.write(leaf.getEncoded());
            return X509Svid.parseRaw(chain.toByteArray(), leafKeys.getPrivate().getEncoded());
        } catch (GeneralSecurityException | IOException | X509SvidException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A static source serving an SVID for {@code spiffeId} and this CA's bundle. */
    public StaticX509Source source(String spiffeId) {
        return new StaticX509Source(issue(spiffeId), bundle());
    }

    private static ContentSigner signer(KeyPair keys) {
        try {
            return new JcaContentSignerBuilder("SHA256withECDSA")
                    .setProvider(BC)
                    .build(keys.getPrivate());
        } catch (OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair ecKeys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
