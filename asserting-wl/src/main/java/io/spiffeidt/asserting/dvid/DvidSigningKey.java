package io.spiffeidt.asserting.dvid;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * The DVID signing key pair: read from a PEM file (shared by all asserting replicas) or, in
 * development, generated at start-up and kept in memory only.
 */
public record DvidSigningKey(PrivateKey privateKey, PublicKey publicKey, boolean generated) {

    /** Loads the key at {@code path}, or generates an RSA-2048 pair when {@code path} is null. */
    public static DvidSigningKey loadOrGenerate(Path path) {
        try {
            if (path == null) {
                KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
                gen.initialize(2048);
                KeyPair kp = gen.generateKeyPair();
                return new DvidSigningKey(kp.getPrivate(), kp.getPublic(), true);
            }
            return load(path);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot create the DVID key", e);
        }
    }

    private static DvidSigningKey load(Path path) throws GeneralSecurityException {
        Object pem;
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(r)) {
            pem = parser.readObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the DVID key file " + path, e);
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter().setProvider(new BouncyCastleProvider());
        try {
            if (pem instanceof PEMKeyPair pair) {
                KeyPair kp = converter.getKeyPair(pair);
                return new DvidSigningKey(kp.getPrivate(), kp.getPublic(), false);
            }
            if (pem instanceof PrivateKeyInfo info) {
                PrivateKey key = converter.getPrivateKey(info);
                return new DvidSigningKey(toJdk(key), publicOf(key), false);
            }
        } catch (IOException e) {
            throw new IllegalStateException("unreadable DVID key in " + path, e);
        }
        throw new IllegalStateException("the DVID key file " + path + " holds no private key");
    }

    private static PrivateKey toJdk(PrivateKey key) throws GeneralSecurityException {
        return KeyFactory.getInstance(key.getAlgorithm().equals("RSA") ? "RSA" : "EC")
                .generatePrivate(new java.security.spec.PKCS8EncodedKeySpec(key.getEncoded()));
    }

    private static PublicKey publicOf(PrivateKey key) throws GeneralSecurityException {
        if (key instanceof RSAPrivateCrtKey rsa) {
            return KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
        }
        if (key instanceof org.bouncycastle.jce.interfaces.ECPrivateKey ec) {
            org.bouncycastle.math.ec.ECPoint q =
                    ec.getParameters().getG().multiply(ec.getD()).normalize();
            org.bouncycastle.jce.spec.ECPublicKeySpec spec =
                    new org.bouncycastle.jce.spec.ECPublicKeySpec(q, ec.getParameters());
            PublicKey bc =
                    KeyFactory.getInstance("EC", new BouncyCastleProvider()).generatePublic(spec);
            return KeyFactory.getInstance("EC")
                    .generatePublic(new java.security.spec.X509EncodedKeySpec(bc.getEncoded()));
        }
        throw new GeneralSecurityException("unsupported DVID key type " + key.getAlgorithm());
    }

    /** Generates an EC P-256 pair (for ES256 DVIDs in tests). */
    public static DvidSigningKey generateEc() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair kp = gen.generateKeyPair();
            return new DvidSigningKey(kp.getPrivate(), kp.getPublic(), true);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "DvidSigningKey[" + publicKey.getAlgorithm() + (generated ? ", generated" : ", from file") + "]";
    }
}
