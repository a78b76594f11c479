package io.spiffeidt.core.anonmode;

import java.math.BigInteger;
import java.util.Optional;

/**
 * A slow, obviously-correct affine edwards25519 model on {@link BigInteger} (RFC 8032 section
 * 5.1), used only to cross-check the field-element implementation.
 */
final class Ed25519Reference {

    static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
    static final BigInteger D = BigInteger.valueOf(-121665)
            .multiply(BigInteger.valueOf(121666).modInverse(P))
            .mod(P);
    static final BigInteger SQRT_M1 =
            BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);

    record Affine(BigInteger x, BigInteger y) {}

    static final Affine IDENTITY = new Affine(BigInteger.ZERO, BigInteger.ONE);

    private Ed25519Reference() {}

    static Affine add(Affine a, Affine b) {
        BigInteger x1x2 = a.x.multiply(b.x);
        BigInteger y1y2 = a.y.multiply(b.y);
        BigInteger k = D.multiply(x1x2).multiply(y1y2).mod(P);
        BigInteger x = a.x.multiply(b.y)
                .add(a.y.multiply(b.x))
                .multiply(BigInteger.ONE.add(k).modInverse(P));
        BigInteger y = y1y2.add(x1x2).multiply(BigInteger.ONE.subtract(k).mod(P).modInverse(P));
        return new Affine(x.mod(P), y.mod(P));
    }

    static Affine negate(Affine a) {
        return new Affine(a.x.negate().mod(P), a.y);
    }

    static Affine multiply(Affine a, BigInteger k) {
        Affine r = IDENTITY;
        for (int i = k.bitLength() - 1; i >= 0; i--) {
            r = add(r, r);
            if (k.testBit(i)) {
                r = add(r, a);
            }
        }
        return r;
    }

    static byte[] encode(Affine a) {
        byte[] out = new byte[32];
        byte[] be = a.y.toByteArray();
        for (int i = 0; i < be.length && i < 32; i++) {
            out[i] = be[be.length - 1 - i];
        }
        if (a.x.testBit(0)) {
            out[31] |= (byte) 0x80;
        }
        return out;
    }

    /** RFC 8032 section 5.1.3, strict. */
    static Optional<Affine> decode(byte[] enc) {
        byte[] le = enc.clone();
        boolean sign = (le[31] & 0x80) != 0;
        le[31] &= 0x7F;
        byte[] be = new byte[32];
        for (int i = 0; i < 32; i++) {
            be[i] = le[31 - i];
        }
        BigInteger y = new BigInteger(1, be);
        if (y.compareTo(P) >= 0) {
            return Optional.empty();
        }
        BigInteger y2 = y.multiply(y).mod(P);
        BigInteger u = y2.subtract(BigInteger.ONE).mod(P);
        BigInteger v = D.multiply(y2).add(BigInteger.ONE).mod(P);
        BigInteger x2 = u.multiply(v.modInverse(P)).mod(P);
        BigInteger x = x2.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
        if (!x.multiply(x).mod(P).equals(x2)) {
            x = x.multiply(SQRT_M1).mod(P);
        }
        if (!x.multiply(x).mod(P).equals(x2)) {
            return Optional.empty();
        }
        if (x.signum() == 0 && sign) {
            return Optional.empty();
        }
        if (x.testBit(0) != sign) {
            x = P.subtract(x);
        }
        return Optional.of(new Affine(x, y));
    }

    static Affine base() {
        BigInteger y = BigInteger.valueOf(4)
                .multiply(BigInteger.valueOf(5).modInverse(P))
                .mod(P);
        byte[] enc = new byte[32];
        byte[] be = y.toByteArray();
        for (int i = 0; i < be.length && i < 32; i++) {
            enc[i] = be[be.length - 1 - i];
        }
        return decode(enc).orElseThrow();
    }
}
