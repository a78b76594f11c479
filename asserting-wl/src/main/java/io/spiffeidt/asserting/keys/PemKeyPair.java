package io.spiffeidt.asserting.keys;

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
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.jce.interfaces.ECPrivateKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Reads a signing key pair from a PEM private key file (PKCS#8 {@code PRIVATE KEY}, or PKCS#1 / SEC 1
 * {@code RSA PRIVATE KEY} / {@code EC PRIVATE KEY}), RSA or EC, as JDK key objects: the file the
 * asserting replicas share for the DVID and the Txn-Token Service keys. Messages name the file and
 * never its content.
 */
public final class PemKeyPair {

    private PemKeyPair() {}

    /**
     * @param what what the key is for, for messages ("DVID", "Txn-Token Service")
     * @throws IllegalStateException when the file cannot be read or holds no private key
     */
    public static KeyPair read(Path path, String what) {
        Object pem;
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.US_ASCII);
                PEMParser parser = new PEMParser(r)) {
            pem = parser.readObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the " + what + " key file " + path, e);
        }
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter().setProvider(new BouncyCastleProvider());
        try {
            if (pem instanceof PEMKeyPair pair && pair.getPublicKeyInfo() != null) {
                KeyPair kp = converter.getKeyPair(pair);
                return new KeyPair(toJdk(kp.getPublic()), toJdk(kp.getPrivate()));
            }
            if (pem instanceof PEMKeyPair pair) { // SEC 1 without its optional public key
                pem = pair.getPrivateKeyInfo();
            }
            if (pem instanceof PrivateKeyInfo info) {
                PrivateKey key = converter.getPrivateKey(info);
                return new KeyPair(publicOf(key), toJdk(key));
            }
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("unreadable " + what + " key in " + path, e);
        }
        throw new IllegalStateException("the " + what + " key file " + path + " holds no private key");
    }

    /**
     * The EC P-256 pair of {@code path}, or, when {@code path} is {@code null}, one made now and kept
     * in memory only (one replica, development).
     *
     * @param what what the key is for, for messages ("WIT issuer")
     * @throws IllegalStateException when the file cannot be read or holds no P-256 key
     */
    public static KeyPair p256(Path path, String what) {
        if (path != null) {
            KeyPair pair = read(path, what);
            if (!(pair.getPublic() instanceof ECPublicKey ec)
                    || ec.getParams().getCurve().getField().getFieldSize() != 256) {
                throw new IllegalStateException("the " + what + " key in " + path + " is not an EC P-256 key (ES256)");
            }
            return pair;
        }
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            return gen.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot create the " + what + " key", e);
        }
    }

    private static PrivateKey toJdk(PrivateKey key) throws GeneralSecurityException {
        return KeyFactory.getInstance(family(key.getAlgorithm()))
                .generatePrivate(new PKCS8EncodedKeySpec(key.getEncoded()));
    }

    private static PublicKey toJdk(PublicKey key) throws GeneralSecurityException {
        return KeyFactory.getInstance(family(key.getAlgorithm()))
                .generatePublic(new X509EncodedKeySpec(key.getEncoded()));
    }

    private static String family(String algorithm) {
        return "RSA".equals(algorithm) ? "RSA" : "EC";
    }

    private static PublicKey publicOf(PrivateKey key) throws GeneralSecurityException {
        if (key instanceof RSAPrivateCrtKey rsa) {
            return KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent()));
        }
        if (key instanceof ECPrivateKey ec) {
            ECPoint q = ec.getParameters().getG().multiply(ec.getD()).normalize();
            PublicKey bc = KeyFactory.getInstance("EC", new BouncyCastleProvider())
                    .generatePublic(new ECPublicKeySpec(q, ec.getParameters()));
            return toJdk(bc);
        }
        throw new GeneralSecurityException("unsupported key type " + key.getAlgorithm());
    }
}
