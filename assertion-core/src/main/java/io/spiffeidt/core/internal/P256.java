package io.spiffeidt.core.internal;

import java.math.BigInteger;
import java.security.Key;
import java.security.interfaces.ECKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.EllipticCurve;
import java.util.Arrays;

/**
 * NIST P-256 (secp256r1, FIPS 186-4 D.1.2.3), the one curve of ES256 in every mode, and the one
 * check that a key or point is on it: prime field and its prime, {@code a}, {@code b}, generator,
 * order and cofactor compared by value (whatever the provider's classes), and for a public key its
 * point on the curve. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class P256 {

    /** Field prime. */
    public static final BigInteger P = hex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff");

    /** Group order. */
    public static final BigInteger N = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

    /** Coordinate and scalar length, bytes. */
    public static final int BYTES = 32;

    /**
     * The DER SubjectPublicKeyInfo of a P-256 key up to its point, in the usual form (algorithm
     * id-ecPublicKey with the named curve prime256v1, an uncompressed point): {@code
     * SEQUENCE(89) { SEQUENCE(19) { OID 1.2.840.10045.2.1, OID 1.2.840.10045.3.1.7 }, BIT
     * STRING(66) 00 04 }}; then {@code X || Y}.
     */
    static final byte[] KEY_INFO_PREFIX = {
        0x30,
        0x59,
        0x30,
        0x13,
        0x06,
        0x07,
        0x2a,
        (byte) 0x86,
        0x48,
        (byte) 0xce,
        0x3d,
        0x02,
        0x01,
        0x06,
        0x08,
        0x2a,
        (byte) 0x86,
        0x48,
        (byte) 0xce,
        0x3d,
        0x03,
        0x01,
        0x07,
        0x03,
        0x42,
        0x00,
        0x04
    };

    /** The length of that form: the prefix and two coordinates. */
    static final int KEY_INFO_LENGTH = KEY_INFO_PREFIX.length + 2 * BYTES;

    private static final BigInteger A = hex("ffffffff00000001000000000000000000000000fffffffffffffffffffffffc");
    private static final BigInteger B = hex("5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b");

    /** The curve parameters. */
    public static final ECParameterSpec PARAMS = new ECParameterSpec(
            new EllipticCurve(new ECFieldFp(P), A, B),
            new ECPoint(
                    hex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"),
                    hex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")),
            N,
            1);

    private P256() {}

    /** Whether {@code params} are P-256: prime field {@code p}, {@code a}, {@code b}, {@code G}, {@code n}, {@code h}. */
    public static boolean isP256(ECParameterSpec params) {
        return params != null
                && params.getCurve().getField() instanceof ECFieldFp field
                && P.equals(field.getP())
                && A.equals(params.getCurve().getA())
                && B.equals(params.getCurve().getB())
                && PARAMS.getGenerator().equals(params.getGenerator())
                && N.equals(params.getOrder())
                && params.getCofactor() == 1;
    }

    /**
     * Whether {@code key} is an EC key on P-256; for a public key also whether its point is on the
     * curve (not the point at infinity).
     */
    public static boolean isP256(Key key) {
        if (!(key instanceof ECKey ec) || !isP256(ec.getParams())) {
            return false;
        }
        if (key instanceof ECPublicKey pub) {
            ECPoint w = pub.getW();
            return w != null && !ECPoint.POINT_INFINITY.equals(w) && onCurve(w.getAffineX(), w.getAffineY());
        }
        return true;
    }

    /**
     * Whether {@code spki} is a P-256 SubjectPublicKeyInfo in the usual form ({@link
     * #KEY_INFO_PREFIX}: named curve, uncompressed point) whose point is on the curve: then a key
     * any provider builds from these bytes is a P-256 key with that point, and {@link
     * #isP256(Key)} of it holds without asking the key object for its parameters.
     */
    public static boolean isUsualKeyInfo(byte[] spki) {
        if (spki == null
                || spki.length != KEY_INFO_LENGTH
                || !Arrays.equals(spki, 0, KEY_INFO_PREFIX.length, KEY_INFO_PREFIX, 0, KEY_INFO_PREFIX.length)) {
            return false;
        }
        int x = KEY_INFO_PREFIX.length;
        return onCurve(
                new BigInteger(1, Arrays.copyOfRange(spki, x, x + BYTES)),
                new BigInteger(1, Arrays.copyOfRange(spki, x + BYTES, x + 2 * BYTES)));
    }

    /** Whether {@code (x, y)} is a point of P-256 with coordinates in {@code [0, p)}. */
    public static boolean onCurve(BigInteger x, BigInteger y) {
        if (x == null || y == null || x.signum() < 0 || y.signum() < 0 || x.compareTo(P) >= 0 || y.compareTo(P) >= 0) {
            return false;
        }
        BigInteger lhs = y.multiply(y).mod(P);
        BigInteger rhs = x.multiply(x).add(A).multiply(x).add(B).mod(P);
        return lhs.equals(rhs);
    }

    private static BigInteger hex(String h) {
        return new BigInteger(h, 16);
    }
}
