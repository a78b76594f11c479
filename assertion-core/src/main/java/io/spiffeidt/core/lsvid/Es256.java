package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECField;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * ES256 as LSVID uses it: ECDSA on P-256 with SHA-256, DER-encoded signatures, keys as DER
 * SubjectPublicKeyInfo, through {@link Signature} with the given provider ({@code null} = the
 * JDK's provider list). Library exceptions are mapped to {@link AssertionException}.
 *
 * <p>Thread safety: stateless.
 */
final class Es256 {

    static final String JCA_ALGORITHM = "SHA256withECDSA";

    private static final BigInteger P256_P =
            new BigInteger("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 16);
    private static final BigInteger P256_N =
            new BigInteger("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);

    private Es256() {}

    /**
     * Parses a DER SubjectPublicKeyInfo that must hold a P-256 key.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#UNSUPPORTED}
     */
    static ECPublicKey publicKey(byte[] spki, Provider provider, int layer) {
        if (spki == null || spki.length == 0) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing public key");
        }
        PublicKey key;
        try {
            KeyFactory kf = provider == null ? KeyFactory.getInstance("EC") : KeyFactory.getInstance("EC", provider);
            key = kf.generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "public key is not a readable EC key");
        }
        if (!(key instanceof ECPublicKey ec) || !isP256(ec)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "public key is not on P-256");
        }
        return ec;
    }

    /** Whether the key is on P-256 (compared by field prime, order and cofactor). */
    static boolean isP256(ECKey key) {
        ECParameterSpec params = key.getParams();
        if (params == null || params.getCofactor() != 1 || !P256_N.equals(params.getOrder())) {
            return false;
        }
        ECField field = params.getCurve().getField();
        return field instanceof ECFieldFp fp && P256_P.equals(fp.getP());
    }

    /** Whether two public keys are the same key (EC: same point on the same curve order). */
    static boolean sameKey(PublicKey a, PublicKey b) {
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof ECPublicKey ea && b instanceof ECPublicKey eb) {
            return ea.getW().equals(eb.getW())
                    && ea.getParams() != null
                    && eb.getParams() != null
                    && ea.getParams().getOrder().equals(eb.getParams().getOrder());
        }
        byte[] ae = a.getEncoded();
        return ae != null && Arrays.equals(ae, b.getEncoded());
    }

    /**
     * Verifies a DER ECDSA signature over {@code data}.
     *
     * @throws AssertionException {@link ErrorCode#BAD_SIGNATURE} when it does not verify (or is
     *     missing or not DER), {@link ErrorCode#UNSUPPORTED} when the provider cannot do ES256
     */
    static void verify(ECPublicKey key, byte[] data, byte[] signature, Provider provider, int layer) {
        if (signature == null || signature.length == 0) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "missing signature");
        }
        boolean ok;
        try {
            Signature s = instance(provider);
            s.initVerify(key);
            s.update(data);
            ok = s.verify(signature);
        } catch (SignatureException e) {
            ok = false;
        } catch (InvalidKeyException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "key not usable for ES256");
        } catch (GeneralSecurityException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "ES256 not available");
        } catch (RuntimeException e) {
            // some providers throw unchecked exceptions on malformed DER
            ok = false;
        }
        if (!ok) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "signature does not verify");
        }
    }

    /** Signs {@code data}; returns the DER signature. */
    static byte[] sign(PrivateKey key, byte[] data, Provider provider) {
        try {
            Signature s = instance(provider);
            s.initSign(key);
            s.update(data);
            return s.sign();
        } catch (InvalidKeyException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "private key not usable for ES256");
        } catch (GeneralSecurityException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "ES256 signing failed");
        }
    }

    private static Signature instance(Provider provider) throws GeneralSecurityException {
        return provider == null ? Signature.getInstance(JCA_ALGORITHM) : Signature.getInstance(JCA_ALGORITHM, provider);
    }
}
