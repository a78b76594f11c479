package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Jwks;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;

/**
 * JWS signing and verification for the two DVID algorithms with a given JCA provider, and the key
 * checks that tie a key to its algorithm; the ES256 specifics (transcoding {@code R || S}) are
 * {@link Es256}'s. Package-private helper.
 *
 * <p>Thread safety: stateless; a {@link Signature} is made per call.
 */
final class JwsSignatures {

    private JwsSignatures() {}

    /**
     * The algorithm a public key is used with, after checking it is usable: RSA of 2048 to 16384
     * bits with an odd exponent from 3 to 2^64, or EC on P-256.
     *
     * @throws AssertionException {@link ErrorCode#UNSUPPORTED} otherwise
     */
    static DvidAlgorithm algorithmOf(PublicKey key) {
        return DvidAlgorithm.fromJwsName(Jwks.algorithmOf(key));
    }

    /**
     * Signs {@code input} as JWS {@code alg} (ES256 output transcoded to {@code R || S}).
     *
     * @throws IllegalStateException when the provider cannot sign with the key (a configuration
     *     error, not an input error)
     */
    static byte[] sign(DvidAlgorithm alg, PrivateKey key, Provider provider, byte[] input) {
        try {
            Signature signature = Signature.getInstance(alg.jcaName(), provider);
            signature.initSign(key);
            signature.update(input);
            byte[] out = signature.sign();
            return alg == DvidAlgorithm.ES256 ? Es256.derToConcat(out) : out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the provider cannot sign " + alg + " with the DVID key", e);
        }
    }

    /**
     * Verifies a JWS signature; {@code key} must already be checked with {@link #algorithmOf}.
     *
     * @throws AssertionException {@link ErrorCode#BAD_SIGNATURE} when it does not verify, {@link
     *     ErrorCode#UNSUPPORTED} when the provider lacks the algorithm or rejects the key
     */
    static void verify(DvidAlgorithm alg, PublicKey key, Provider provider, byte[] input, byte[] sig, int layer) {
        byte[] encoded;
        if (alg == DvidAlgorithm.RS256) {
            int len = (((RSAPublicKey) key).getModulus().bitLength() + 7) / 8;
            if (sig.length != len) {
                throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "signature length does not match the key");
            }
            encoded = sig;
        } else {
            encoded = Es256.concatToDer(sig, layer);
        }
        boolean ok;
        try {
            Signature signature = Signature.getInstance(alg.jcaName(), provider);
            signature.initVerify(key);
            signature.update(input);
            ok = signature.verify(encoded);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "the provider cannot verify " + alg, e);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "signature does not verify");
        }
        if (!ok) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "signature does not verify");
        }
    }
}
