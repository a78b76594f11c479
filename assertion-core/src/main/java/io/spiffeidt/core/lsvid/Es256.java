package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.PublicKeys;
import io.spiffeidt.core.internal.P256;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPublicKey;
import java.security.spec.X509EncodedKeySpec;

/**
 * ES256 as LSVID uses it: ECDSA on P-256 with SHA-256, DER-encoded signatures, keys as DER
 * SubjectPublicKeyInfo, through {@link Signature} with the given provider ({@code null} = the
 * JDK's provider list). Library exceptions are mapped to {@link AssertionException}.
 *
 * <p>Thread safety: stateless.
 */
final class Es256 {

    static final String JCA_ALGORITHM = "SHA256withECDSA";

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

    /** Whether the key is on P-256 ({@link P256#isP256(java.security.Key)}). */
    static boolean isP256(java.security.Key key) {
        return P256.isP256(key);
    }

    /** Whether two public keys are the same key ({@link PublicKeys#same}). */
    static boolean sameKey(PublicKey a, PublicKey b) {
        return PublicKeys.same(a, b);
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
