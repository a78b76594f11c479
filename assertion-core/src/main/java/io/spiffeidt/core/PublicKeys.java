package io.spiffeidt.core;

import java.security.PublicKey;
import java.util.Arrays;

/**
 * The one comparison of public keys in the core: same algorithm and the same encoded
 * SubjectPublicKeyInfo bytes, whatever provider built either key.
 *
 * <p>Thread safety: stateless.
 */
public final class PublicKeys {

    private PublicKeys() {}

    /** Whether {@code a} and {@code b} are the same key (a key without an encoding never matches). */
    public static boolean same(PublicKey a, PublicKey b) {
        if (a == null || b == null) {
            return false;
        }
        byte[] ae = a.getEncoded();
        byte[] be = b.getEncoded();
        return ae != null && be != null && a.getAlgorithm().equals(b.getAlgorithm()) && Arrays.equals(ae, be);
    }
}
