package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import org.bouncycastle.crypto.digests.SHA256Digest;

/**
 * An integer modulo the order L of the edwards25519 prime-order subgroup (docs/formats/anon-mode.md "Group
 * and encodings"): the secret keys, nonces, challenges and signature values of Anon-Mode.
 *
 * <p>Encoding: 32 bytes little-endian, always canonical ({@code < L}); {@link #decode(byte[])}
 * rejects anything else. {@link #hash(String)} is the mode's hash to scalar {@code H(text) =
 * LE(SHA-256(UTF-8 text)) mod L}.
 *
 * <p>The arithmetic uses {@link BigInteger} and is not constant-time; the group operations on
 * secret scalars ({@link Point#multiplyBase(Scalar)}, {@link Point#multiply(Scalar)}) are. In this
 * mode every signing key is a bearer value carried by the token the signer received, so the
 * timing of these few modular operations protects nothing the token does not already give away;
 * only the nonce matters, and it only enters one subtraction and one multiplication.
 *
 * <p>{@link #toString()} never shows the value. Thread safety: immutable.
 */
public final class Scalar {

    /** The group order L = 2^252 + 27742317777372353535851937790883648493. */
    public static final BigInteger ORDER =
            BigInteger.ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));

    /** The scalar 0. */
    public static final Scalar ZERO = of(BigInteger.ZERO);

    /** The scalar 1. */
    public static final Scalar ONE = of(BigInteger.ONE);

    private final byte[] le;
    private final BigInteger value;

    private Scalar(BigInteger value) {
        this.value = value;
        this.le = Ed25519Group.toLittleEndian32(value);
    }

    /**
     * The scalar {@code value mod L}.
     *
     * @param value any integer
     * @return the reduced scalar
     */
    public static Scalar of(BigInteger value) {
        return new Scalar(Objects.requireNonNull(value, "value").mod(ORDER));
    }

    /**
     * Strictly decodes a 32-byte little-endian scalar.
     *
     * @param encoding exactly 32 bytes, value {@code < L}
     * @return the scalar
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a wrong length or a value {@code
     *     >= L} (a non-canonical encoding)
     */
    public static Scalar decode(byte[] encoding) {
        if (encoding == null || encoding.length != Ed25519Group.ENCODED_LENGTH) {
            throw new AssertionException(ErrorCode.MALFORMED, "scalar is not 32 bytes");
        }
        BigInteger v = fromLittleEndian(encoding);
        if (v.compareTo(ORDER) >= 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "non-canonical scalar (not below the group order)");
        }
        return new Scalar(v);
    }

    /**
     * The hash to scalar of docs/formats/anon-mode.md: SHA-256 of the UTF-8 bytes of {@code text}, read as
     * a little-endian integer, reduced mod L.
     *
     * @param text the text to hash
     * @return {@code H(text)}
     */
    public static Scalar hash(String text) {
        SHA256Digest digest = new SHA256Digest();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        digest.update(bytes, 0, bytes.length);
        return fromDigest(digest);
    }

    /** {@code LE(digest output) mod L}; finishes the digest. */
    static Scalar fromDigest(SHA256Digest digest) {
        byte[] out = new byte[digest.getDigestSize()];
        digest.doFinal(out, 0);
        return of(fromLittleEndian(out));
    }

    /**
     * A uniformly random scalar in {@code [1, L)}: 64 random bytes reduced mod L (bias below
     * 2^-250), drawn again in the (negligible) case of zero.
     *
     * @param random the randomness source
     * @return a non-zero scalar
     */
    public static Scalar random(SecureRandom random) {
        byte[] wide = new byte[64];
        while (true) {
            random.nextBytes(wide);
            BigInteger v = new BigInteger(1, wide).mod(ORDER);
            Arrays.fill(wide, (byte) 0);
            if (v.signum() != 0) {
                return new Scalar(v);
            }
        }
    }

    private static BigInteger fromLittleEndian(byte[] le) {
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) {
            be[i] = le[le.length - 1 - i];
        }
        return new BigInteger(1, be);
    }

    /** {@code this + other mod L}. */
    public Scalar add(Scalar other) {
        return of(value.add(other.value));
    }

    /** {@code this - other mod L}. */
    public Scalar subtract(Scalar other) {
        return of(value.subtract(other.value));
    }

    /** {@code this * other mod L}. */
    public Scalar multiply(Scalar other) {
        return of(value.multiply(other.value));
    }

    /** {@code -this mod L}. */
    public Scalar negate() {
        return of(value.negate());
    }

    /** Whether this is 0. */
    public boolean isZero() {
        return value.signum() == 0;
    }

    /** The canonical 32-byte little-endian encoding (a copy). */
    public byte[] encode() {
        return le.clone();
    }

    /** The encoding without a copy, for this package only; callers must not modify it. */
    byte[] bytes() {
        return le;
    }

    /** The value as an integer in {@code [0, L)}. */
    public BigInteger toBigInteger() {
        return value;
    }

    /** Compares the encodings in constant time. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Scalar other && MessageDigest.isEqual(le, other.le);
    }

    /** The hash of the encoding. */
    @Override
    public int hashCode() {
        return Arrays.hashCode(le);
    }

    /** Never shows the value (it may be a key). */
    @Override
    public String toString() {
        return "Scalar[redacted]";
    }
}
