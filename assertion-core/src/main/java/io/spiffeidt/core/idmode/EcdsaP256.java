package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.P256;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Objects;

/**
 * ECDSA P-256 / SHA-256 with ASN.1 DER signatures, the only algorithm of ID-Mode (docs/formats/id-mode.md
 * "Wire format"). The JCA provider is always a parameter.
 *
 * <p>Thread safety: stateless; a fresh {@link Signature} per call.
 */
final class EcdsaP256 {

    static final String ALGORITHM = "SHA256withECDSA";

    /** The longest DER encoding of a P-256 signature: SEQUENCE of two 33-byte INTEGERs. */
    static final int MAX_DER_LENGTH = 72;

    private EcdsaP256() {}

    /** Whether {@code key} is an EC key on P-256 ({@link P256#isP256(java.security.Key)}). */
    static boolean isP256(java.security.Key key) {
        return P256.isP256(key);
    }

    /** Fails with {@link ErrorCode#UNSUPPORTED} unless {@code key} is an EC P-256 key. */
    static void requireP256(java.security.Key key, int layer) {
        if (!isP256(key)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "signer key is not EC P-256");
        }
    }

    /** Signs {@code data[off, off+len)}; returns the DER signature. */
    static byte[] sign(PrivateKey key, byte[] data, int off, int len, Provider provider) {
        Objects.requireNonNull(provider, "provider");
        try {
            Signature s = Signature.getInstance(ALGORITHM, provider);
            s.initSign(key);
            s.update(data, off, len);
            return s.sign();
        } catch (InvalidKeyException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "signing key not usable with " + ALGORITHM, e);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "provider cannot sign with " + ALGORITHM, e);
        }
    }

    /**
     * Verifies a DER signature over {@code data[off, off+len)}. A signature that is not the
     * canonical DER of two integers in {@code [1, n-1]} never verifies.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} when the provider cannot use the key
     */
    static boolean verify(
            PublicKey key, byte[] data, int off, int len, byte[] signature, Provider provider, int layer) {
        Objects.requireNonNull(provider, "provider");
        if (!isCanonicalDer(signature)) {
            return false;
        }
        Signature s;
        try {
            s = Signature.getInstance(ALGORITHM, provider);
            s.initVerify(key);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "provider cannot verify " + ALGORITHM);
        }
        try {
            s.update(data, off, len);
            return s.verify(signature);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** Whether {@code sig} is DER {@code SEQUENCE { INTEGER r, INTEGER s }}, minimal, with 0 < r, s < n. */
    static boolean isCanonicalDer(byte[] sig) {
        if (sig == null || sig.length < 8 || sig.length > MAX_DER_LENGTH) {
            return false;
        }
        if ((sig[0] & 0xFF) != 0x30 || (sig[1] & 0xFF) != sig.length - 2) {
            return false;
        }
        int pos = 2;
        for (int i = 0; i < 2; i++) {
            if (pos + 2 > sig.length || sig[pos] != 0x02) {
                return false;
            }
            int len = sig[pos + 1] & 0xFF;
            int start = pos + 2;
            if (len < 1 || len > 33 || start + len > sig.length) {
                return false;
            }
            if ((sig[start] & 0x80) != 0) {
                return false; // negative
            }
            if (len > 1 && sig[start] == 0 && (sig[start + 1] & 0x80) == 0) {
                return false; // not minimal
            }
            byte[] mag = new byte[len];
            System.arraycopy(sig, start, mag, 0, len);
            BigInteger v = new BigInteger(1, mag);
            if (v.signum() == 0 || v.compareTo(P256.N) >= 0) {
                return false;
            }
            pos = start + len;
        }
        return pos == sig.length;
    }
}
