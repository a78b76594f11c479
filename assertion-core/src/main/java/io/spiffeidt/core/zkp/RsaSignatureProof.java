package io.spiffeidt.core.zkp;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.VerificationProfile;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.util.BigIntegers;

/**
 * The zero-knowledge proof of knowledge of an RSA signature (docs/formats/dvid.md "The zero-knowledge
 * proof"): shows that the prover knows {@code s} with {@code s^e ≡ m (mod n)}, {@code m} the
 * EMSA-PKCS1-v1_5 SHA-256 encoding of {@code msg}, without revealing {@code s}. Non-interactive by
 * Fiat-Shamir: the challenge bits are the bits of SHA-256 over the commitments.
 *
 * <p>The verifier is hardened against the original's flaws: every {@code p_i} and {@code c_i} must
 * lie in {@code [1, n)}, every {@code c_i} must be a unit mod {@code n}, and the number of rounds
 * must be within the limits (at least {@link Limits#minZkpRounds()} under the strict profile, at
 * least 1 under original-compatible, at most {@link Limits#maxZkpRounds()} under both). The
 * all-zero proof that the original accepts for any message is rejected under both profiles.
 *
 * <p>Thread safety: stateless; the {@link SecureRandom} passed to {@link #prove} must be safe for
 * the caller's concurrency (the JDK's is).
 */
public final class RsaSignatureProof {

    /** Smallest IdP modulus accepted, bits. */
    public static final int MIN_MODULUS_BITS = 2048;

    /** Largest IdP modulus accepted, bits (bounds the work an input can cause). */
    public static final int MAX_MODULUS_BITS = 16384;

    /** Largest public exponent accepted, bits (bounds the work an input can cause). */
    public static final int MAX_EXPONENT_BITS = 64;

    /** DER DigestInfo prefix of SHA-256 (RFC 8017 §9.2 note 1). */
    private static final byte[] SHA256_DIGEST_INFO = {
        0x30,
        0x31,
        0x30,
        0x0d,
        0x06,
        0x09,
        0x60,
        (byte) 0x86,
        0x48,
        0x01,
        0x65,
        0x03,
        0x04,
        0x02,
        0x01,
        0x05,
        0x00,
        0x04,
        0x20
    };

    private RsaSignatureProof() {}

    /**
     * Makes a proof of {@code rounds} rounds that the prover knows the RS256 signature {@code
     * signature} of {@code msg} under {@code idpKey}. The signature is checked first.
     *
     * @param msg the signed bytes (for an OAuth JWT: the ASCII of {@code header.payload})
     * @param signature the RSASSA-PKCS1-v1_5 SHA-256 signature (the witness)
     * @param idpKey the IdP's RSA public key
     * @param rounds the number of rounds, 1 to 256
     * @param random the source of the commitments' randomness
     * @throws AssertionException {@link ErrorCode#BAD_SIGNATURE} if the signature does not verify,
     *     {@link ErrorCode#UNSUPPORTED} for an unusable key
     * @throws IllegalArgumentException for rounds out of 1 to 256
     */
    public static ZkProof prove(byte[] msg, byte[] signature, RSAPublicKey idpKey, int rounds, SecureRandom random) {
        return prove(msg, signature, idpKey, rounds, random, null);
    }

    /**
     * {@link #prove(byte[], byte[], RSAPublicKey, int, SecureRandom)} with every {@code x^e mod n}
     * (the witness check and the commitments) computed by {@code provider}'s {@code
     * RSA/ECB/NoPadding}.
     *
     * @param provider the JCA provider of the raw RSA operation; null: the highest-priority one
     */
    public static ZkProof prove(
            byte[] msg, byte[] signature, RSAPublicKey idpKey, int rounds, SecureRandom random, Provider provider) {
        Objects.requireNonNull(msg, "msg");
        Objects.requireNonNull(signature, "signature");
        Objects.requireNonNull(random, "random");
        if (rounds < 1 || rounds > ZkProofCodec.MAX_ROUNDS) {
            throw new IllegalArgumentException("rounds must be between 1 and " + ZkProofCodec.MAX_ROUNDS);
        }
        BigInteger n = checkedModulus(idpKey);
        BigInteger m = emsaPkcs1Sha256(msg, byteLength(n));
        if (signature.length != byteLength(n)) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, "signature length does not match the IdP key");
        }
        RsaPublicOperation pow = RsaPublicOperation.of(idpKey, provider);
        BigInteger s = new BigInteger(1, signature);
        if (s.signum() == 0 || s.compareTo(n) >= 0 || !pow.apply(s).equals(m)) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, "the witness is not a valid signature of msg");
        }
        // No unit check here: an r_i sharing a factor with n would be a factor of n found by chance
        // (for an RSA modulus, probability about 2^-1000 per draw); the verifier's check would reject
        // such a proof, so it fails closed without this side spending a gcd on every proof.
        BarrettModulus mod = new BarrettModulus(n);
        List<BigInteger> r = new ArrayList<>(rounds);
        List<BigInteger> c = new ArrayList<>(rounds);
        for (int i = 0; i < rounds; i++) {
            BigInteger ri = randomNonZero(n, random);
            r.add(ri);
            c.add(pow.apply(ri));
        }
        byte[] d = challenge(c);
        List<BigInteger> p = new ArrayList<>(rounds);
        for (int i = 0; i < rounds; i++) {
            p.add(bit(d, i) ? mod.multiply(s, r.get(i)) : r.get(i));
        }
        return new ZkProof(p, c);
    }

    /**
     * Verifies {@code proof} for {@code msg} under {@code idpKey}.
     *
     * @param proof the proof
     * @param msg the signed bytes (for an OAuth JWT: the ASCII of {@code header.payload})
     * @param idpKey the IdP's RSA public key
     * @param profile strict: at least {@link Limits#minZkpRounds()} rounds; original-compatible: at
     *     least 1
     * @param limits the round limits
     * @throws AssertionException {@link ErrorCode#BAD_PROOF} when the proof does not verify, is
     *     degenerate (a value 0 or not below n, a commitment sharing a factor with n) or has too few
     *     rounds; {@link ErrorCode#LIMIT_EXCEEDED} for more than {@link Limits#maxZkpRounds()}
     *     rounds; {@link ErrorCode#UNSUPPORTED} for an unusable key
     */
    public static void verify(
            ZkProof proof, byte[] msg, RSAPublicKey idpKey, VerificationProfile profile, Limits limits) {
        verify(proof, msg, idpKey, profile, limits, null);
    }

    /**
     * {@link #verify(ZkProof, byte[], RSAPublicKey, VerificationProfile, Limits)} with every {@code
     * p_i^e mod n} computed by {@code provider}'s {@code RSA/ECB/NoPadding}. Every check is the same:
     * ranges first, then one gcd of the product of the commitments mod {@code n} (all are units iff
     * the product is), then each round.
     *
     * @param provider the JCA provider of the raw RSA operation; null: the highest-priority one
     */
    public static void verify(
            ZkProof proof,
            byte[] msg,
            RSAPublicKey idpKey,
            VerificationProfile profile,
            Limits limits,
            Provider provider) {
        Objects.requireNonNull(proof, "proof");
        Objects.requireNonNull(msg, "msg");
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(limits, "limits");
        int k = proof.rounds();
        if (k > limits.maxZkpRounds()) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED, "proof has " + k + " rounds, over the limit " + limits.maxZkpRounds());
        }
        int min = profile == VerificationProfile.STRICT ? limits.minZkpRounds() : 1;
        if (k < min) {
            throw new AssertionException(ErrorCode.BAD_PROOF, "proof has " + k + " rounds, under the minimum " + min);
        }
        BigInteger n = checkedModulus(idpKey);
        for (int i = 0; i < k; i++) {
            inRange(proof.p().get(i), n, "p", i);
            inRange(proof.c().get(i), n, "c", i);
        }
        BarrettModulus mod = new BarrettModulus(n);
        BigInteger product = BigInteger.ONE;
        for (BigInteger ci : proof.c()) {
            product = mod.multiply(product, ci);
        }
        // BouncyCastle's safegcd (Bernstein-Yang) answers "gcd = 1?" for an odd modulus several times
        // faster than BigInteger.gcd; variable time is fine, every input here is public
        if (!BigIntegers.modOddIsCoprimeVar(n, product)) {
            throw new AssertionException(ErrorCode.BAD_PROOF, "degenerate commitment (shares a factor with n)");
        }
        BigInteger m = emsaPkcs1Sha256(msg, byteLength(n));
        byte[] d = challenge(proof.c());
        RsaPublicOperation pow = RsaPublicOperation.of(idpKey, provider);
        for (int i = 0; i < k; i++) {
            BigInteger ci = proof.c().get(i);
            BigInteger expected = bit(d, i) ? mod.multiply(m, ci) : ci;
            if (!pow.apply(proof.p().get(i)).equals(expected)) {
                throw new AssertionException(ErrorCode.BAD_PROOF, "round " + i + " does not verify");
            }
        }
    }

    /**
     * The EMSA-PKCS1-v1_5 encoding (RFC 8017 §9.2) of SHA-256({@code msg}) to {@code emLen} bytes,
     * as a non-negative integer.
     */
    static BigInteger emsaPkcs1Sha256(byte[] msg, int emLen) {
        byte[] hash = sha256().digest(msg);
        int tLen = SHA256_DIGEST_INFO.length + hash.length;
        if (emLen < tLen + 11) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "RSA modulus too short for EMSA-PKCS1-v1_5");
        }
        byte[] em = new byte[emLen];
        em[0] = 0x00;
        em[1] = 0x01;
        int psEnd = emLen - tLen - 1;
        for (int i = 2; i < psEnd; i++) {
            em[i] = (byte) 0xff;
        }
        em[psEnd] = 0x00;
        System.arraycopy(SHA256_DIGEST_INFO, 0, em, psEnd + 1, SHA256_DIGEST_INFO.length);
        System.arraycopy(hash, 0, em, emLen - hash.length, hash.length);
        return new BigInteger(1, em);
    }

    /** SHA-256 over the minimal unsigned big-endian bytes of each commitment, in order. */
    static byte[] challenge(List<BigInteger> commitments) {
        MessageDigest digest = sha256();
        for (BigInteger ci : commitments) {
            byte[] b = ci.toByteArray(); // two's complement: a leading 0x00 only as the sign byte
            int from = b.length > 1 && b[0] == 0 ? 1 : 0;
            digest.update(b, from, b.length - from);
        }
        return digest.digest();
    }

    /** Bit {@code i} of {@code d}, the most significant bit of {@code d[0]} first. */
    static boolean bit(byte[] d, int i) {
        return ((d[i / 8] >> (7 - (i % 8))) & 1) == 1;
    }

    private static void inRange(BigInteger v, BigInteger n, String name, int i) {
        if (v.signum() <= 0 || v.compareTo(n) >= 0) {
            throw new AssertionException(ErrorCode.BAD_PROOF, name + " of round " + i + " is out of range");
        }
    }

    private static BigInteger randomNonZero(BigInteger n, SecureRandom random) {
        while (true) {
            BigInteger r = new BigInteger(n.bitLength(), random);
            if (r.signum() > 0 && r.compareTo(n) < 0) {
                return r;
            }
        }
    }

    private static BigInteger checkedModulus(RSAPublicKey key) {
        if (key == null) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "no IdP key");
        }
        BigInteger n = key.getModulus();
        BigInteger e = key.getPublicExponent();
        if (n == null
                || e == null
                || n.bitLength() < MIN_MODULUS_BITS
                || n.bitLength() > MAX_MODULUS_BITS
                || !n.testBit(0)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "unusable IdP RSA modulus");
        }
        if (e.compareTo(BigInteger.valueOf(3)) < 0 || !e.testBit(0) || e.bitLength() > MAX_EXPONENT_BITS) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "unusable IdP RSA exponent");
        }
        return n;
    }

    private static int byteLength(BigInteger n) {
        return (n.bitLength() + 7) / 8;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
