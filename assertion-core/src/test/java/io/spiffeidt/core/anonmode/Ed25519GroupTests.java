package io.spiffeidt.core.anonmode;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The edwards25519 group code ({@link Point}, {@link Scalar}): RFC 8032 section 7.1 public keys,
 * cross-checks against BouncyCastle's Ed25519 and a BigInteger reference model, strict decoding.
 */
class Ed25519GroupTests {

    private static final Random RANDOM = new Random(20240521);

    /** What {@link Point#decode} says of any encoding it refuses. */
    private static final String NOT_A_POINT = "not a canonical edwards25519 point";

    /** RFC 8032 section 7.1: TEST 1, TEST 2, TEST 3, TEST 1024, TEST SHA(abc). */
    @ParameterizedTest
    @CsvSource({
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60,"
                + "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb,"
                + "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7,"
                + "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5,"
                + "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
        "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42,"
                + "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf"
    })
    void multiplyBaseWhenRfc8032SecretKeyThenRfc8032PublicKey(String secretHex, String publicHex) {
        Scalar a = clampedScalar(Codec.fromHex(secretHex));

        assertThat(Point.multiplyBase(a).toHex()).isEqualTo(publicHex);
        assertThat(Point.base().multiply(a).toHex()).isEqualTo(publicHex);
    }

    @Test
    void multiplyBaseWhenRandomSecretKeysThenMatchesBouncyCastleEd25519() {
        for (int i = 0; i < 200; i++) {
            byte[] sk = new byte[32];
            RANDOM.nextBytes(sk);
            byte[] expected = new byte[32];
            Ed25519.generatePublicKey(sk, 0, expected, 0);
            Scalar a = clampedScalar(sk);

            assertThat(Point.multiplyBase(a).encode())
                    .as("base table, key %d", i)
                    .isEqualTo(expected);
            assertThat(Point.base().multiply(a).encode())
                    .as("window, key %d", i)
                    .isEqualTo(expected);
        }
    }

    @Test
    void multiplyWhenRandomPointsAndScalarsThenMatchesReferenceModel() {
        for (int i = 0; i < 25; i++) {
            Point p = Point.multiplyBase(randomScalar());
            Ed25519Reference.Affine ref = Ed25519Reference.decode(p.encode()).orElseThrow();
            Scalar k = randomScalar();

            assertThat(p.multiply(k).encode())
                    .isEqualTo(Ed25519Reference.encode(Ed25519Reference.multiply(ref, k.toBigInteger())));
        }
    }

    @Test
    void multiplyPublicWhenAnyScalarThenSameAsConstantTimeMultiply() {
        List<Scalar> scalars = new ArrayList<>(List.of(
                Scalar.ZERO,
                Scalar.ONE,
                Scalar.of(BigInteger.TWO),
                Scalar.of(BigInteger.valueOf(16)),
                Scalar.of(BigInteger.valueOf(31)),
                Scalar.of(BigInteger.TWO.pow(252)),
                Scalar.ONE.negate(),
                Scalar.of(BigInteger.TWO.pow(252).subtract(BigInteger.ONE))));
        for (int i = 0; i < 40; i++) {
            scalars.add(randomScalar());
        }
        Point p = Point.multiplyBase(randomScalar());
        Point q = Point.multiplyBase(randomScalar());
        for (Scalar k : scalars) {
            Point expected = p.multiply(k);
            Point actual = p.multiplyPublic(k);

            assertThat(actual).as(k.toBigInteger().toString(16)).isEqualTo(expected);
            // the result's T coordinate must be complete: use it in further additions
            assertThat(actual.add(q)).isEqualTo(expected.add(q));
            assertThat(q.subtract(actual)).isEqualTo(q.subtract(expected));
        }
    }

    @Test
    void addSubtractNegateTwiceWhenRandomPointsThenMatchReferenceModel() {
        for (int i = 0; i < 100; i++) {
            Point p = Point.multiplyBase(randomScalar());
            Point q = Point.multiplyBase(randomScalar());
            Ed25519Reference.Affine rp = Ed25519Reference.decode(p.encode()).orElseThrow();
            Ed25519Reference.Affine rq = Ed25519Reference.decode(q.encode()).orElseThrow();

            assertThat(p.add(q).encode()).isEqualTo(Ed25519Reference.encode(Ed25519Reference.add(rp, rq)));
            assertThat(p.subtract(q).encode())
                    .isEqualTo(Ed25519Reference.encode(Ed25519Reference.add(rp, Ed25519Reference.negate(rq))));
            assertThat(p.negate().encode()).isEqualTo(Ed25519Reference.encode(Ed25519Reference.negate(rp)));
            assertThat(p.twice().encode()).isEqualTo(Ed25519Reference.encode(Ed25519Reference.add(rp, rp)));
            assertThat(p.add(p.negate()).isIdentity()).isTrue();
            assertThat(p.subtract(q).add(q)).isEqualTo(p);
        }
    }

    @Test
    void multiplyWhenScalarArithmeticThenGroupHomomorphism() {
        for (int i = 0; i < 20; i++) {
            Scalar a = randomScalar();
            Scalar b = randomScalar();
            Point pa = Point.multiplyBase(a);

            assertThat(Point.multiplyBase(a.add(b))).isEqualTo(pa.add(Point.multiplyBase(b)));
            assertThat(Point.multiplyBase(a.multiply(b))).isEqualTo(pa.multiply(b));
            assertThat(Point.multiplyBase(a.negate())).isEqualTo(pa.negate());
            assertThat(Point.multiplyBase(a.subtract(b))).isEqualTo(pa.subtract(Point.multiplyBase(b)));
        }
    }

    @Test
    void multiplyWhenEdgeScalarsThenExpectedPoints() {
        Scalar minusOne = Scalar.of(BigInteger.ONE.negate());

        assertThat(Point.multiplyBase(Scalar.ZERO).isIdentity()).isTrue();
        assertThat(Point.multiplyBase(Scalar.ONE)).isEqualTo(Point.base());
        assertThat(Point.multiplyBase(minusOne)).isEqualTo(Point.base().negate());
        assertThat(Point.base().multiply(Scalar.ZERO).isIdentity()).isTrue();
        assertThat(Point.base().multiply(minusOne)).isEqualTo(Point.base().negate());
        assertThat(Point.base().multiply(Scalar.of(BigInteger.valueOf(8))))
                .isEqualTo(Point.base().twice().twice().twice());
        assertThat(Point.identity().multiply(randomScalar()).isIdentity()).isTrue();
    }

    @Test
    void decodeWhenRandomBytesThenAgreesWithReferenceModel() {
        int accepted = 0;
        int rejected = 0;
        for (int i = 0; i < 400; i++) {
            byte[] enc = new byte[32];
            RANDOM.nextBytes(enc);
            Optional<Ed25519Reference.Affine> ref = Ed25519Reference.decode(enc);
            if (ref.isPresent()) {
                accepted++;
                assertThat(Point.decode(enc).encode()).isEqualTo(enc);
                assertThat(Point.decode(enc).twice().encode())
                        .isEqualTo(Ed25519Reference.encode(Ed25519Reference.add(ref.get(), ref.get())));
            } else {
                rejected++;
                assertThatAssertion(() -> Point.decode(enc)).hasCode(ErrorCode.MALFORMED);
            }
        }
        assertThat(accepted).isPositive();
        assertThat(rejected).isPositive();
    }

    @Test
    void decodeWhenNonCanonicalYThenMalformed() {
        BigInteger p = Ed25519Reference.P;
        for (BigInteger y : List.of(p, p.add(BigInteger.ONE), p.add(BigInteger.valueOf(18)))) {
            for (int sign = 0; sign < 2; sign++) {
                byte[] enc = littleEndian(y);
                enc[31] |= (byte) (sign << 7);
                // the same value reduced mod p is a valid point (y = 0, 1 or 18 may or may not be)
                assertThatAssertion(() -> Point.decode(enc)).hasCode(ErrorCode.MALFORMED);
            }
        }
        // y = p + 1 reduces to y = 1, the identity, which decodes in canonical form
        assertThat(Point.decode(littleEndian(BigInteger.ONE)).isIdentity()).isTrue();
    }

    @Test
    void decodeWhenNegativeZeroThenMalformed() {
        byte[] negativeIdentity = littleEndian(BigInteger.ONE);
        negativeIdentity[31] |= (byte) 0x80;
        byte[] negativeOrderTwo = littleEndian(Ed25519Reference.P.subtract(BigInteger.ONE));
        negativeOrderTwo[31] |= (byte) 0x80;

        // x = 0 with the sign bit set: the same y without it is a valid point (the identity, and (0, -1))
        assertThat(Point.decode(littleEndian(BigInteger.ONE)).isIdentity()).isTrue();
        assertThat(Point.decode(littleEndian(Ed25519Reference.P.subtract(BigInteger.ONE)))
                        .isSmallOrder())
                .isTrue();
        assertThatAssertion(() -> Point.decode(negativeIdentity))
                .hasCode(ErrorCode.MALFORMED)
                .hasMessageContaining(NOT_A_POINT);
        assertThatAssertion(() -> Point.decode(negativeOrderTwo))
                .hasCode(ErrorCode.MALFORMED)
                .hasMessageContaining(NOT_A_POINT);
    }

    @Test
    void decodeWhenNotOnCurveThenMalformed() {
        List<byte[]> offCurve = new ArrayList<>();
        for (int y = 2; offCurve.size() < 5 && y < 1000; y++) {
            byte[] enc = littleEndian(BigInteger.valueOf(y));
            if (Ed25519Reference.decode(enc).isEmpty()) {
                offCurve.add(enc);
            }
        }
        assertThat(offCurve).hasSize(5);
        for (byte[] enc : offCurve) {
            assertThatAssertion(() -> Point.decode(enc)).hasCode(ErrorCode.MALFORMED);
        }
    }

    @Test
    void decodeWhenWrongLengthThenMalformed() {
        assertThatAssertion(() -> Point.decode(new byte[31]))
                .hasCode(ErrorCode.MALFORMED)
                .hasMessageContaining(NOT_A_POINT);
        assertThatAssertion(() -> Point.decode(new byte[33]))
                .hasCode(ErrorCode.MALFORMED)
                .hasMessageContaining(NOT_A_POINT);
        assertThatAssertion(() -> Point.decode(null))
                .hasCode(ErrorCode.MALFORMED)
                .hasMessageContaining(NOT_A_POINT);
    }

    @Test
    void isSmallOrderWhenTorsionPointsThenTrueAndWhenPrimeOrderThenFalse() {
        // L·P of a random curve point lies in the torsion subgroup of order 8
        List<byte[]> torsion = new ArrayList<>();
        while (torsion.size() < 40) {
            byte[] enc = new byte[32];
            RANDOM.nextBytes(enc);
            Optional<Ed25519Reference.Affine> ref = Ed25519Reference.decode(enc);
            if (ref.isPresent()) {
                torsion.add(Ed25519Reference.encode(Ed25519Reference.multiply(ref.get(), Scalar.ORDER)));
            }
        }
        long distinct = torsion.stream().map(Codec::hex).distinct().count();
        assertThat(distinct).isGreaterThan(4);
        for (byte[] enc : torsion) {
            assertThat(Point.decode(enc).isSmallOrder()).as(Codec.hex(enc)).isTrue();
        }
        assertThat(Point.identity().isSmallOrder()).isTrue();
        for (int i = 0; i < 20; i++) {
            assertThat(Point.multiplyBase(randomScalar()).isSmallOrder()).isFalse();
        }
        assertThat(Point.base().isSmallOrder()).isFalse();
    }

    @Test
    void scalarDecodeWhenNotBelowOrderThenMalformed() {
        BigInteger l = Scalar.ORDER;
        for (BigInteger v :
                List.of(l, l.add(BigInteger.ONE), BigInteger.TWO.pow(256).subtract(BigInteger.ONE))) {
            byte[] enc = littleEndian(v);
            assertThatAssertion(() -> Scalar.decode(enc)).hasCode(ErrorCode.MALFORMED);
        }
        assertThat(Scalar.decode(littleEndian(l.subtract(BigInteger.ONE))).toBigInteger())
                .isEqualTo(l.subtract(BigInteger.ONE));
        assertThatAssertion(() -> Scalar.decode(new byte[31]))
                .hasCode(ErrorCode.MALFORMED)
                .hasMessageContaining("scalar is not 32 bytes");
    }

    @Test
    void scalarWhenArithmeticThenMatchesBigIntegerModOrder() {
        for (int i = 0; i < 50; i++) {
            Scalar a = randomScalar();
            Scalar b = randomScalar();
            BigInteger l = Scalar.ORDER;

            assertThat(a.add(b).toBigInteger())
                    .isEqualTo(a.toBigInteger().add(b.toBigInteger()).mod(l));
            assertThat(a.subtract(b).toBigInteger())
                    .isEqualTo(a.toBigInteger().subtract(b.toBigInteger()).mod(l));
            assertThat(a.multiply(b).toBigInteger())
                    .isEqualTo(a.toBigInteger().multiply(b.toBigInteger()).mod(l));
            assertThat(Scalar.decode(a.encode())).isEqualTo(a);
        }
    }

    @Test
    void scalarToStringWhenKeyThenRedacted() {
        Scalar a = randomScalar();

        assertThat(a.toString()).doesNotContain(a.toBigInteger().toString()).doesNotContain(Codec.hex(a.encode()));
        assertThat(SchnorrKeyPair.of(a).toString()).doesNotContain(Codec.hex(a.encode()));
    }

    static Scalar randomScalar() {
        byte[] wide = new byte[64];
        RANDOM.nextBytes(wide);
        return Scalar.of(new BigInteger(1, wide));
    }

    /** RFC 8032 section 5.1.5 steps 1-3: SHA-512, clamp the low half, read it little-endian. */
    private static Scalar clampedScalar(byte[] secretKey) {
        byte[] h;
        try {
            h = MessageDigest.getInstance("SHA-512").digest(secretKey);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] a = Arrays.copyOf(h, 32);
        a[0] &= (byte) 0xF8;
        a[31] &= 0x7F;
        a[31] |= 0x40;
        byte[] be = new byte[32];
        for (int i = 0; i < 32; i++) {
            be[i] = a[31 - i];
        }
        return Scalar.of(new BigInteger(1, be));
    }

    static byte[] littleEndian(BigInteger v) {
        byte[] out = new byte[32];
        byte[] be = v.toByteArray();
        for (int i = 0; i < be.length && i < 32; i++) {
            out[i] = be[be.length - 1 - i];
        }
        return out;
    }
}
