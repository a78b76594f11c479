package io.spiffeidt.core.zkp;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.interfaces.RSAPublicKey;
import javax.crypto.Cipher;
import javax.crypto.NoSuchPaddingException;

/**
 * {@code x^e mod n} for one RSA public key: the raw RSA public-key operation, computed by a JCA
 * provider's {@code RSA/ECB/NoPadding} (natively with Amazon Corretto) and by {@link
 * BigInteger#modPow} only when the provider cannot take the key (for example an exponent longer
 * than it supports). Callers check {@code 0 <= x < n} first; the provider rejects {@code x >= n}
 * as well, which fails closed here.
 *
 * <p>Thread safety: not thread-safe (one instance per proof or verification).
 */
final class RsaPublicOperation {

    private final BigInteger n;
    private final BigInteger e;
    private final int k;
    private final Cipher cipher;
    private final byte[] block;

    private RsaPublicOperation(RSAPublicKey key, Cipher cipher) {
        this.n = key.getModulus();
        this.e = key.getPublicExponent();
        this.k = (n.bitLength() + 7) / 8;
        this.cipher = cipher;
        this.block = new byte[k];
    }

    /**
     * The operation for {@code key} with {@code provider}'s {@code RSA/ECB/NoPadding}, or with the
     * highest-priority provider that has it when {@code provider} is null.
     */
    static RsaPublicOperation of(RSAPublicKey key, Provider provider) {
        Cipher cipher;
        try {
            cipher = provider == null
                    ? Cipher.getInstance("RSA/ECB/NoPadding")
                    : Cipher.getInstance("RSA/ECB/NoPadding", provider);
            cipher.init(Cipher.ENCRYPT_MODE, key);
        } catch (NoSuchAlgorithmException | NoSuchPaddingException | InvalidKeyException e) {
            cipher = null;
        }
        return new RsaPublicOperation(key, cipher);
    }

    /** The operation without a provider: {@link BigInteger#modPow} (the reference, for tests). */
    static RsaPublicOperation bigInteger(RSAPublicKey key) {
        return new RsaPublicOperation(key, null);
    }

    /** Whether a provider computes it (false: {@link BigInteger#modPow}). */
    boolean isNative() {
        return cipher != null;
    }

    /**
     * {@code x^e mod n}.
     *
     * @throws AssertionException {@link ErrorCode#BAD_PROOF} when {@code x} is negative or not below
     *     {@code n}, or the provider refuses it
     */
    BigInteger apply(BigInteger x) {
        if (x.signum() < 0 || x.compareTo(n) >= 0) {
            throw new AssertionException(ErrorCode.BAD_PROOF, "value out of range for the RSA operation");
        }
        if (cipher == null) {
            return x.modPow(e, n);
        }
        byte[] raw = x.toByteArray();
        int from = raw.length > k ? raw.length - k : 0; // only a leading sign byte can be dropped (x < n)
        int len = raw.length - from;
        java.util.Arrays.fill(block, 0, k - len, (byte) 0);
        System.arraycopy(raw, from, block, k - len, len);
        try {
            return new BigInteger(1, cipher.doFinal(block));
        } catch (GeneralSecurityException | RuntimeException ex) {
            throw new AssertionException(ErrorCode.BAD_PROOF, "the RSA operation refused a value");
        }
    }
}
