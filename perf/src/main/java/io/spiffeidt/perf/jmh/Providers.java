package io.spiffeidt.perf.jmh;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.Provider;
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
}
