package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Jwks;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;

/**
 * JWS signing and verification for the two DVID algorithms with a given JCA provider, and the key
 * checks that tie a key to its algorithm. Package-private helper.
 *
 * <p>Thread safety: stateless; a {@link Signature} is made per call.
 */
final class JwsSignatures {

    private static final int P256_BYTES = 32;

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
            return alg == DvidAlgorithm.ES256 ? derToConcat(out) : out;
        } catch (GeneralSecurityException | IOException e) {
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
            if (sig.length != 2 * P256_BYTES) {
                throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "ES256 signature is not 64 bytes");
            }
            encoded = concatToDer(sig, layer);
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

    private static byte[] concatToDer(byte[] sig, int layer) {
        BigInteger r = new BigInteger(1, java.util.Arrays.copyOfRange(sig, 0, P256_BYTES));
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(sig, P256_BYTES, 2 * P256_BYTES));
        BigInteger order = Jwks.P256.getOrder();
        if (r.signum() == 0 || s.signum() == 0 || r.compareTo(order) >= 0 || s.compareTo(order) >= 0) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "ES256 signature values out of range");
        }
        try {
            return new DERSequence(new ASN1Encodable[] {new ASN1Integer(r), new ASN1Integer(s)}).getEncoded();
        } catch (IOException e) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, layer, "ES256 signature cannot be encoded");
        }
    }

    private static byte[] derToConcat(byte[] der) throws IOException {
        ASN1Sequence seq = ASN1Sequence.getInstance(der);
        if (seq.size() != 2) {
            throw new IOException("ECDSA signature is not a pair");
        }
        byte[] out = new byte[2 * P256_BYTES];
        put(ASN1Integer.getInstance(seq.getObjectAt(0)).getPositiveValue(), out, 0);
        put(ASN1Integer.getInstance(seq.getObjectAt(1)).getPositiveValue(), out, P256_BYTES);
        return out;
    }

    private static void put(BigInteger v, byte[] out, int offset) throws IOException {
        byte[] b = v.toByteArray();
        int start = (b.length > P256_BYTES && b[0] == 0) ? 1 : 0;
        int len = b.length - start;
        if (len > P256_BYTES) {
            throw new IOException("ECDSA value too long");
        }
        System.arraycopy(b, start, out, offset + P256_BYTES - len, len);
    }
}
