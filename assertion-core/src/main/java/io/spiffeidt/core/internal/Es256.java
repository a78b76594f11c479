package io.spiffeidt.core.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.crypto.impl.ECDSA;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * ES256, the one ECDSA of every mode: ECDSA on P-256 with SHA-256 through {@link Signature} with the
 * given provider ({@code null} = the JDK's provider list), DER signatures as ID-Mode and LSVID carry
 * them, and the transcoding to and from the {@code R || S} form of a JWS (docs/formats/dvid.md)
 * done by nimbus' {@link ECDSA}. Library exceptions become {@link AssertionException}s. Not API.
 *
 * <p>Thread safety: stateless; a fresh {@link Signature} per call.
 */
public final class Es256 {

    /** The JCA name. */
    public static final String JCA_ALGORITHM = "SHA256withECDSA";

    /** The longest DER encoding of a P-256 signature: SEQUENCE of two 33-byte INTEGERs. */
    public static final int MAX_DER_LENGTH = 72;

    /** The length of a JWS ES256 signature, {@code R || S}. */
    public static final int CONCAT_LENGTH = 2 * P256.BYTES;

    private Es256() {}

    /** Whether {@code key} is an EC key on P-256 ({@link P256#isP256(Key)}). */
    public static boolean isP256(Key key) {
        return P256.isP256(key);
    }

    /**
     * {@code privateKey} as {@code provider}'s signing key, after checking that both keys are P-256 and a
     * pair (one signature made and verified).
     *
     * @param whose whose key it is, for the message ("Txn-Token Service", "WIT issuer")
     * @throws IllegalArgumentException when a key is not P-256 or the two are not a pair
     */
    public static PrivateKey signingPair(PrivateKey privateKey, PublicKey publicKey, Provider provider, String whose) {
        if (!isP256(publicKey) || !isP256(privateKey)) {
            throw new IllegalArgumentException("the " + whose + " key must be EC P-256");
        }
        PrivateKey signing = ProviderKeys.forSigning(privateKey, provider);
        byte[] probe = "key-pair-check".getBytes(StandardCharsets.US_ASCII);
        if (!verify(publicKey, probe, 0, probe.length, sign(signing, probe, provider), provider, -1)) {
            throw new IllegalArgumentException("the " + whose + " private and public keys are not a pair");
        }
        return signing;
    }

    /** Fails with {@link ErrorCode#UNSUPPORTED} unless {@code key} is an EC P-256 key. */
    public static void requireP256(Key key, int layer) {
        if (!isP256(key)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "signer key is not EC P-256");
        }
    }

    /**
     * Parses a DER SubjectPublicKeyInfo that must hold a P-256 key.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when missing, {@link ErrorCode#UNSUPPORTED}
     *     when not a readable EC key on P-256
     */
    public static ECPublicKey publicKey(byte[] spki, Provider provider, int layer) {
        if (spki == null || spki.length == 0) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing public key");
        }
        // the usual encoding is checked on its bytes; only another one asks the provider's key object
        boolean usual = P256.isUsualKeyInfo(spki);
        PublicKey key;
        try {
            KeyFactory kf = provider == null ? KeyFactory.getInstance("EC") : KeyFactory.getInstance("EC", provider);
            key = kf.generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "public key is not a readable EC key");
        }
        if (!(key instanceof ECPublicKey ec) || !(usual || isP256(ec))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "public key is not on P-256");
        }
        return ec;
    }

    /** Signs {@code data}; returns the DER signature. */
    public static byte[] sign(PrivateKey key, byte[] data, Provider provider) {
        return sign(key, data, 0, data.length, provider);
    }

    /**
     * Signs {@code data[off, off+len)}; returns the DER signature.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} when the key or the provider cannot sign
     */
    public static byte[] sign(PrivateKey key, byte[] data, int off, int len, Provider provider) {
        try {
            Signature s = instance(provider);
            s.initSign(key);
            s.update(data, off, len);
            return s.sign();
        } catch (InvalidKeyException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "signing key not usable with " + JCA_ALGORITHM, e);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "provider cannot sign with " + JCA_ALGORITHM, e);
        }
    }

    /**
     * Whether the DER signature verifies over {@code data[off, off+len)}; a signature the provider
     * cannot read does not.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} when the provider cannot use the key
     */
    public static boolean verify(
            PublicKey key, byte[] data, int off, int len, byte[] signature, Provider provider, int layer) {
        if (signature == null || signature.length == 0) {
            return false;
        }
        Signature s;
        try {
            s = instance(provider);
            s.initVerify(key);
        } catch (InvalidKeyException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "key not usable for ES256");
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "ES256 not available");
        }
        try {
            s.update(data, off, len);
            return s.verify(signature);
        } catch (SignatureException | RuntimeException e) {
            // some providers throw unchecked exceptions on malformed DER
            return false;
        }
    }

    /**
     * Verifies a DER signature over {@code data}.
     *
     * @throws AssertionException {@link ErrorCode#BAD_SIGNATURE} when it is missing or does not
     *     verify, {@link ErrorCode#UNSUPPORTED} when the provider cannot use the key
     */
    public static void requireValid(PublicKey key, byte[] data, byte[] signature, Provider provider, int layer) {
        if (signature == null || signature.length == 0) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "missing signature");
        }
        if (!verify(key, data, 0, data.length, signature, provider, layer)) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "signature does not verify");
        }
    }

    /** Whether {@code sig} is DER {@code SEQUENCE { INTEGER r, INTEGER s }}, minimal, with 0 < r, s < n. */
    public static boolean isCanonicalDer(byte[] sig) {
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
            BigInteger v = new BigInteger(1, Arrays.copyOfRange(sig, start, start + len));
            if (v.signum() == 0 || v.compareTo(P256.N) >= 0) {
                return false;
            }
            pos = start + len;
        }
        return pos == sig.length;
    }

    /**
     * The DER form of a JWS signature {@code R || S}.
     *
     * @throws AssertionException {@link ErrorCode#BAD_SIGNATURE} unless it is 64 bytes with {@code R}
     *     and {@code S} in {@code [1, n-1]}
     */
    public static byte[] concatToDer(byte[] concat, int layer) {
        if (concat == null || concat.length != CONCAT_LENGTH) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "ES256 signature is not 64 bytes");
        }
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(concat, 0, P256.BYTES));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(concat, P256.BYTES, CONCAT_LENGTH));
        if (r.signum() == 0 || s.signum() == 0 || r.compareTo(P256.N) >= 0 || s.compareTo(P256.N) >= 0) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "ES256 signature values out of range");
        }
        try {
            return ECDSA.transcodeSignatureToDER(concat);
        } catch (JOSEException e) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "ES256 signature cannot be encoded");
        }
    }

    /**
     * The JWS form {@code R || S} of a DER signature this process made.
     *
     * @throws IllegalStateException when the provider's output is not a DER signature
     */
    public static byte[] derToConcat(byte[] der) {
        try {
            return ECDSA.transcodeSignatureToConcat(der, CONCAT_LENGTH);
        } catch (JOSEException e) {
            throw new IllegalStateException("the provider's ES256 signature is not DER", e);
        }
    }

    private static Signature instance(Provider provider) throws GeneralSecurityException {
        return provider == null ? Signature.getInstance(JCA_ALGORITHM) : Signature.getInstance(JCA_ALGORITHM, provider);
    }
}
