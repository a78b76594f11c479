package io.spiffeidt.support.identity;

import java.math.BigInteger;
import java.security.Key;
import java.security.interfaces.ECKey;
import java.security.interfaces.RSAKey;

/**
 * What an SVID key can do here: ID-Mode layers and LSVID documents are signed with the workload's
 * own SVID key as ES256, so they need an EC P-256 key; DVID and Anon-Mode never sign with it. SPIRE
 * can be configured to issue RSA (or other EC) SVIDs, which mTLS accepts but these modes cannot use.
 *
 * <p>Thread safety: stateless.
 */
public final class SvidKeys {

    /** The order of the P-256 base point (FIPS 186-4 D.1.2.3). */
    private static final BigInteger P256_ORDER =
            new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

    private SvidKeys() {}

    /** Whether {@code key} (public or private) is an EC key on the P-256 curve. */
    public static boolean isP256(Key key) {
        return key instanceof ECKey ec && ec.getParams().getOrder().equals(P256_ORDER);
    }

    /**
     * A short description of the key's type and size for log lines and problems, never its value:
     * {@code EC P-256}, {@code RSA 2048-bit}, {@code EC 384-bit}.
     */
    public static String describe(Key key) {
        if (key == null) {
            return "no key";
        }
        if (isP256(key)) {
            return "EC P-256";
        }
        if (key instanceof RSAKey rsa) {
            return "RSA " + rsa.getModulus().bitLength() + "-bit";
        }
        if (key instanceof ECKey ec) {
            return "EC " + ec.getParams().getOrder().bitLength() + "-bit";
        }
        return key.getAlgorithm();
    }
}
