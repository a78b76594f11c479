package io.spiffeidt.perf.jmh;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/** The JCA providers the benchmarks compare: the JDK's, BouncyCastle, Amazon Corretto (native). */
public final class Providers {

    private Providers() {}

    /**
     * The provider {@code name} ({@code sun}, {@code bc}, {@code accp}) for keys of {@code keyType}
     * ({@code RSA} or {@code EC}).
     */
    public static Provider of(String name, String keyType) {
        return switch (name) {
            case "sun" -> Security.getProvider(keyType.equals("RSA") ? "SunRsaSign" : "SunEC");
            case "bc" -> new BouncyCastleProvider();
            case "accp" -> {
                AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
                accp.assertHealthy();
                yield accp;
            }
            default -> throw new IllegalArgumentException("unknown provider " + name);
        };
    }

    /**
     * The randomness as the asserting workload takes it ({@code SignatureProvider.secureRandom}):
     * ACCP's DRBG with ACCP ({@code name} {@code accp}, {@code provider} its instance), else the JDK's.
     */
    public static SecureRandom secureRandom(String name, Provider provider) throws NoSuchAlgorithmException {
        return name.equals("accp") ? SecureRandom.getInstance("DEFAULT", provider) : new SecureRandom();
    }

    /** A fresh RSA 2048-bit key pair (a DVID signer's, an IdP's). */
    public static KeyPair rsaKeyPair() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }
}
