package io.spiffeidt.support.crypto;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.util.Objects;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * The JCA provider this workload signs and verifies with, chosen once at start-up (ECOSYSTEM.md
 * "Crypto speed"). {@link CryptoProviderChoice#AUTO} takes the Amazon Corretto Crypto Provider when
 * its native library loads and passes its self tests, else a private BouncyCastle instance.
 * Nothing is registered globally ({@code Security.addProvider} is never called).
 *
 * <p>With {@link CryptoProviderChoice#SUN}, {@link #provider()} is {@code SunEC} (ECDSA only);
 * {@link #signature(String)} picks the JDK provider that has the algorithm (SunRsaSign for RSA).
 *
 * <p>Thread safety: immutable; providers are thread safe.
 */
public class SignatureProvider {

    private final CryptoProviderChoice choice;
    private final Provider provider;
    private final String name;
    private final String reason;

    /**
     * Chooses a provider.
     *
     * @throws IllegalStateException for {@link CryptoProviderChoice#ACCP} when ACCP does not load
     */
    public SignatureProvider(CryptoProviderChoice choice) {
        this.choice = Objects.requireNonNull(choice, "choice");
        switch (choice) {
            case AUTO -> {
                Throwable accpProblem = accpProblem();
                if (accpProblem == null) {
                    this.provider = AmazonCorrettoCryptoProvider.INSTANCE;
                    this.name = "accp";
                    this.reason = "AUTO: ACCP loaded";
                } else {
                    this.provider = new BouncyCastleProvider();
                    this.name = "bc";
                    this.reason =
                            "AUTO: ACCP unavailable (" + accpProblem.getClass().getSimpleName() + ")";
                }
            }
            case ACCP -> {
                Throwable accpProblem = accpProblem();
                if (accpProblem != null) {
                    throw new IllegalStateException("Amazon Corretto Crypto Provider unavailable", accpProblem);
                }
                this.provider = AmazonCorrettoCryptoProvider.INSTANCE;
                this.name = "accp";
                this.reason = "configured";
            }
            case BC -> {
                this.provider = new BouncyCastleProvider();
                this.name = "bc";
                this.reason = "configured";
            }
            case SUN -> {
                this.provider = Objects.requireNonNull(Security.getProvider("SunEC"), "SunEC");
                this.name = "sun";
                this.reason = "configured";
            }
            default -> throw new IllegalArgumentException("unknown provider choice " + choice);
        }
    }

    /** Whether the Amazon Corretto Crypto Provider loads and is healthy on this machine. */
    public static boolean accpAvailable() {
        return accpProblem() == null;
    }

    private static Throwable accpProblem() {
        try {
            AmazonCorrettoCryptoProvider accp = AmazonCorrettoCryptoProvider.INSTANCE;
            if (accp.getLoadingError() != null) {
                return accp.getLoadingError();
            }
            accp.assertHealthy();
            return null;
        } catch (Throwable e) { // LinkageError from the native library included
            return e;
        }
    }

    /** What was configured. */
    public CryptoProviderChoice choice() {
        return choice;
    }

    /**
     * The provider to pass to the core (sign / verify). For {@link CryptoProviderChoice#SUN} this is
     * {@code SunEC}; RSA then needs {@link #signature(String)}.
     */
    public Provider provider() {
        return provider;
    }

    /** The short name for logs and the {@code crypto.provider} metric tag: {@code accp}, {@code bc}, {@code sun}. */
    public String name() {
        return name;
    }

    /** Why this provider was chosen (for the start-up log line). */
    public String reason() {
        return reason;
    }

    /**
     * The provider of RSA operations: the chosen one, or for {@link CryptoProviderChoice#SUN} the
     * JDK provider that has {@code SHA256withRSA} (SunEC has no RSA). The OAuth proof's {@code x^e
     * mod n} runs there.
     */
    public Provider rsaProvider() {
        return signature("SHA256withRSA").getProvider();
    }

    /**
     * A new source of randomness for secrets this workload makes (the proof's commitments): the
     * Amazon Corretto provider's DRBG when that is the chosen provider (AWS-LC's CTR-DRBG, seeded by
     * the operating system; several times faster than the JDK's NativePRNG for the proof's 20 KB),
     * else the JDK's default {@link SecureRandom}.
     */
    public SecureRandom secureRandom() {
        if (provider instanceof AmazonCorrettoCryptoProvider) {
            try {
                return SecureRandom.getInstance("DEFAULT", provider);
            } catch (NoSuchAlgorithmException e) {
                return new SecureRandom();
            }
        }
        return new SecureRandom();
    }

    /**
     * A {@link Signature} for {@code algorithm} from the chosen provider; for {@link
     * CryptoProviderChoice#SUN} from the JDK provider that implements it.
     *
     * @throws IllegalArgumentException when the provider does not implement the algorithm
     */
    public Signature signature(String algorithm) {
        try {
            if (choice == CryptoProviderChoice.SUN) {
                for (String jdk : new String[] {"SunEC", "SunRsaSign", "SUN"}) {
                    Provider p = Security.getProvider(jdk);
                    if (p != null && p.getService("Signature", algorithm) != null) {
                        return Signature.getInstance(algorithm, p);
                    }
                }
                throw new NoSuchAlgorithmException(algorithm);
            }
            return Signature.getInstance(algorithm, provider);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalArgumentException("provider " + name + " has no signature " + algorithm, e);
        }
    }

    @Override
    public String toString() {
        return "SignatureProvider[" + name + ", " + provider.getName() + "]";
    }
}
