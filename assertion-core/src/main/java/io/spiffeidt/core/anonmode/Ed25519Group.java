package io.spiffeidt.core.anonmode;

import java.math.BigInteger;
import org.bouncycastle.math.ec.rfc7748.X25519Field;

// Why our own: Anon-Mode needs edwards25519 group operations (point add, arbitrary scalar mult,
// strict decoding) that JCA and BouncyCastle expose only inside EdDSA (AnonModeVectorsTests).
/**
 * Group arithmetic of edwards25519 (RFC 8032 section 5.1) on BouncyCastle's {@link X25519Field}
 * field elements: strict point decoding, encoding, addition, doubling, constant-time scalar
 * multiplication of the base point (precomputed table) and of arbitrary points (signed radix-16
 * window). Not API: {@link Point} and {@link Scalar} are the public face.
 *
 * <p>Points are kept in extended twisted Edwards coordinates (X:Y:Z:T) with x = X/Z, y = Y/Z and
 * xy = T/Z (Hisil, Wong, Carter, Dawson 2008, curve parameter a = -1).
 *
 * <p>Field element bounds: {@code X25519Field.mul}/{@code sqr} accept inputs whose limbs are at most
 * one addition or subtraction away from a product (or a carried value); anything deeper is carried
 * with {@code X25519Field.carry} before it is multiplied.
 *
 * <p>Thread safety: stateless; the base table is built once, immutable afterwards and published
 * through class initialization.
 */
final class Ed25519Group {

    /** p = 2^255 - 19. */
    static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));

    /** Length of a compressed point and of a scalar. */
    static final int ENCODED_LENGTH = 32;

    private static final int F_SIZE = X25519Field.SIZE;

    /** d = -121665 / 121666 mod p. */
    private static final int[] D = fieldConstant(BigInteger.valueOf(-121665)
            .multiply(BigInteger.valueOf(121666).modInverse(P))
            .mod(P));

    /** 2d mod p. */
    private static final int[] D2 = fieldConstant(BigInteger.valueOf(-121665)
            .multiply(BigInteger.valueOf(121666).modInverse(P))
            .shiftLeft(1)
            .mod(P));

    private static final byte[] BASE_ENCODING = baseEncoding();

    /** The base point B (y = 4/5, x positive). */
    static final Ext BASE = decodeOrNull(BASE_ENCODING);

    private Ed25519Group() {}

    /** A point in extended coordinates. Mutable scratch object; never shared once published. */
    static final class Ext {
        final int[] x = X25519Field.create();
        final int[] y = X25519Field.create();
        final int[] z = X25519Field.create();
        final int[] t = X25519Field.create();

        Ext copy() {
            Ext r = new Ext();
            copyInto(this, r);
            return r;
        }
    }

    /** A point prepared for addition: (Y+X, Y-X, 2Z, 2dT). */
    static final class Cached {
        final int[] ypx = X25519Field.create();
        final int[] ymx = X25519Field.create();
        final int[] z2 = X25519Field.create();
        final int[] t2d = X25519Field.create();
    }

    /** An affine point prepared for addition: (y+x, y-x, 2dxy); the base table holds these. */
    static final class Affine {
        final int[] ypx = X25519Field.create();
        final int[] ymx = X25519Field.create();
        final int[] xy2d = X25519Field.create();
    }

    // ---------------------------------------------------------------- constants and helpers

    private static int[] fieldConstant(BigInteger v) {
        byte[] le = toLittleEndian32(v);
        int[] z = X25519Field.create();
        X25519Field.decode(le, 0, z);
        return z;
    }

    static byte[] toLittleEndian32(BigInteger v) {
        byte[] be = v.toByteArray();
        byte[] le = new byte[ENCODED_LENGTH];
        for (int i = 0; i < be.length && i < ENCODED_LENGTH; i++) {
            le[i] = be[be.length - 1 - i];
        }
        return le;
    }

    private static byte[] baseEncoding() {
        // y = 4/5 mod p, sign bit of x = 0 (RFC 8032 section 5.1)
        BigInteger y = BigInteger.valueOf(4)
                .multiply(BigInteger.valueOf(5).modInverse(P))
                .mod(P);
        return toLittleEndian32(y);
    }

    private static Ext decodeOrNull(byte[] enc) {
        Ext r = new Ext();
        return decode(enc, r) ? r : null;
    }

    static void copyInto(Ext p, Ext r) {
        X25519Field.copy(p.x, 0, r.x, 0);
        X25519Field.copy(p.y, 0, r.y, 0);
        X25519Field.copy(p.z, 0, r.z, 0);
        X25519Field.copy(p.t, 0, r.t, 0);
    }

    /** The neutral element (0, 1). */
    static Ext identity() {
        Ext r = new Ext();
        X25519Field.one(r.y);
        X25519Field.one(r.z);
        return r;
    }

    // ---------------------------------------------------------------- encoding

    /**
     * Strict RFC 8032 section 5.1.3 decoding: rejects y >= p, points not on the curve and the
     * negative-zero form (x = 0 with the sign bit set). Does not check the order.
     *
     * @return whether {@code enc} is a valid encoding; {@code r} holds the point when it is
     */
    static boolean decode(byte[] enc, Ext r) {
        if (enc == null || enc.length != ENCODED_LENGTH || !isCanonicalY(enc)) {
            return false;
        }
        int sign = (enc[31] & 0x80) >>> 7;
        byte[] yBytes = enc.clone();
        yBytes[31] &= 0x7F;
        X25519Field.decode(yBytes, 0, r.y);

        int[] u = X25519Field.create();
        int[] v = X25519Field.create();
        X25519Field.sqr(r.y, u);
        X25519Field.mul(D, u, v);
        X25519Field.subOne(u); // u = y^2 - 1
        X25519Field.addOne(v); // v = d y^2 + 1
        if (!X25519Field.sqrtRatioVar(u, v, r.x)) {
            return false;
        }
        X25519Field.normalize(r.x);
        if (sign == 1 && X25519Field.isZeroVar(r.x)) {
            return false;
        }
        if ((r.x[0] & 1) != sign) {
            X25519Field.negate(r.x, r.x);
        }
        X25519Field.one(r.z);
        X25519Field.mul(r.x, r.y, r.t);
        return true;
    }

    /** Whether the 255-bit y of an encoding is below p = 2^255 - 19. */
    private static boolean isCanonicalY(byte[] enc) {
        if ((enc[31] & 0x7F) != 0x7F) {
            return true;
        }
        for (int i = 30; i >= 1; i--) {
            if ((enc[i] & 0xFF) != 0xFF) {
                return true;
            }
        }
        return (enc[0] & 0xFF) < 0xED;
    }

    /**
     * RFC 8032 section 5.1.2 encoding.
     *
     * @param constantTime whether the inversion must not depend on the value (secret points)
     */
    static byte[] encode(Ext p, boolean constantTime) {
        int[] zInv = X25519Field.create();
        if (constantTime) {
            X25519Field.inv(p.z, zInv);
        } else {
            X25519Field.invVar(p.z, zInv);
        }
        int[] x = X25519Field.create();
        int[] y = X25519Field.create();
        X25519Field.mul(p.x, zInv, x);
        X25519Field.mul(p.y, zInv, y);
        X25519Field.normalize(x);
        X25519Field.normalize(y);
        byte[] out = new byte[ENCODED_LENGTH];
        X25519Field.encode(y, out, 0);
        out[31] |= (byte) ((x[0] & 1) << 7);
        return out;
    }

    // ---------------------------------------------------------------- point operations

    /** r = -p (r may be p). */
    static void negate(Ext p, Ext r) {
        X25519Field.negate(p.x, r.x);
        X25519Field.copy(p.y, 0, r.y, 0);
        X25519Field.copy(p.z, 0, r.z, 0);
        X25519Field.negate(p.t, r.t);
        X25519Field.carry(r.x);
        X25519Field.carry(r.t);
    }

    /** The addition form of p. */
    static Cached toCached(Ext p) {
        Cached c = new Cached();
        toCached(p, c);
        return c;
    }

    private static void toCached(Ext p, Cached c) {
        X25519Field.apm(p.y, p.x, c.ypx, c.ymx);
        X25519Field.carry(c.ypx);
        X25519Field.carry(c.ymx);
        X25519Field.add(p.z, p.z, c.z2);
        X25519Field.carry(c.z2);
        X25519Field.mul(p.t, D2, c.t2d);
    }

    /**
     * r = p + q, or p - q when {@code subtract} (unified formula, add-2008-hwcd-3; r may be p).
     */
    static void add(Ext p, Cached q, boolean subtract, Ext r) {
        int[] a = X25519Field.create();
        int[] b = X25519Field.create();
        int[] c = X25519Field.create();
        int[] d = X25519Field.create();
        int[] e = X25519Field.create();
        int[] f = X25519Field.create();
        int[] g = X25519Field.create();
        int[] h = X25519Field.create();

        X25519Field.apm(p.y, p.x, b, a); // b = Y1 + X1, a = Y1 - X1
        X25519Field.mul(a, subtract ? q.ypx : q.ymx, a);
        X25519Field.mul(b, subtract ? q.ymx : q.ypx, b);
        X25519Field.mul(p.t, q.t2d, c);
        X25519Field.mul(p.z, q.z2, d);
        X25519Field.apm(b, a, h, e); // h = B + A, e = B - A
        if (subtract) {
            X25519Field.apm(d, c, f, g); // C is negated: f = D + C, g = D - C
        } else {
            X25519Field.apm(d, c, g, f); // g = D + C, f = D - C
        }
        X25519Field.mul(e, f, r.x);
        X25519Field.mul(g, h, r.y);
        X25519Field.mul(f, g, r.z);
        X25519Field.mul(e, h, r.t);
    }

    /** r = p + q for an affine table point q (r may be p). */
    private static void addAffine(Ext p, Affine q, Ext r) {
        int[] a = X25519Field.create();
        int[] b = X25519Field.create();
        int[] c = X25519Field.create();
        int[] d = X25519Field.create();
        int[] e = X25519Field.create();
        int[] f = X25519Field.create();
        int[] g = X25519Field.create();
        int[] h = X25519Field.create();

        X25519Field.apm(p.y, p.x, b, a);
        X25519Field.mul(a, q.ymx, a);
        X25519Field.mul(b, q.ypx, b);
        X25519Field.mul(p.t, q.xy2d, c);
        X25519Field.add(p.z, p.z, d);
        X25519Field.apm(b, a, h, e);
        X25519Field.apm(d, c, g, f);
        X25519Field.carry(f);
        X25519Field.carry(g);
        X25519Field.mul(e, f, r.x);
        X25519Field.mul(g, h, r.y);
        X25519Field.mul(f, g, r.z);
        X25519Field.mul(e, h, r.t);
    }

    /** r = 2p (dbl-2008-hwcd, a = -1); T is computed only when {@code withT} (r may be p). */
    static void dbl(Ext p, Ext r, boolean withT) {
        int[] a = X25519Field.create();
        int[] b = X25519Field.create();
        int[] c = X25519Field.create();
        int[] e = X25519Field.create();
        int[] f = X25519Field.create();
        int[] g = X25519Field.create();
        int[] h = X25519Field.create();

        X25519Field.sqr(p.x, a);
        X25519Field.sqr(p.y, b);
        X25519Field.sqr(p.z, c);
        X25519Field.add(c, c, c); // C = 2 Z^2
        X25519Field.add(p.x, p.y, e);
        X25519Field.sqr(e, e);
        X25519Field.sub(e, a, e);
        X25519Field.sub(e, b, e); // E = (X + Y)^2 - A - B
        X25519Field.carry(e);
        X25519Field.sub(b, a, g); // G = B - A
        X25519Field.sub(g, c, f); // F = G - C
        X25519Field.carry(f);
        X25519Field.add(a, b, h);
        X25519Field.negate(h, h); // H = -A - B
        X25519Field.mul(e, f, r.x);
        X25519Field.mul(g, h, r.y);
        X25519Field.mul(f, g, r.z);
        if (withT) {
            X25519Field.mul(e, h, r.t);
        }
    }

    /** Whether p is the neutral element. */
    static boolean isIdentity(Ext p) {
        int[] x = X25519Field.create();
        X25519Field.copy(p.x, 0, x, 0);
        X25519Field.normalize(x);
        if (!X25519Field.isZeroVar(x)) {
            return false;
        }
        int[] diff = X25519Field.create();
        X25519Field.sub(p.y, p.z, diff);
        X25519Field.normalize(diff);
        return X25519Field.isZeroVar(diff);
    }

    /** Whether 8p is the neutral element (p is one of the 8 points of small order). */
    static boolean isSmallOrder(Ext p) {
        Ext q = new Ext();
        dbl(p, q, false);
        dbl(q, q, false);
        dbl(q, q, false);
        // 8p = (0, -1) would mean p has order 16, which the curve (order 8 L) has not
        int[] x = X25519Field.create();
        X25519Field.copy(q.x, 0, x, 0);
        X25519Field.normalize(x);
        return X25519Field.isZeroVar(x);
    }

    // ---------------------------------------------------------------- scalar multiplication

    /**
     * Signed radix-16 digits e[0..63] in [-8, 8] of a 32-byte little-endian scalar below 2^255, so
     * that scalar = sum e[i] 16^i. Branch-free.
     */
    static int[] signedRadix16(byte[] scalar) {
        int[] e = new int[64];
        for (int i = 0; i < 32; i++) {
            e[2 * i] = scalar[i] & 0x0F;
            e[2 * i + 1] = (scalar[i] >>> 4) & 0x0F;
        }
        int carry = 0;
        for (int i = 0; i < 63; i++) {
            e[i] += carry;
            carry = (e[i] + 8) >> 4;
            e[i] -= carry << 4;
        }
        e[63] += carry;
        return e;
    }

    /** Constant-time k*p for a scalar k below 2^255 (signed radix-16 fixed window). */
    static Ext multiply(Ext p, byte[] k) {
        Cached[] table = new Cached[8];
        Ext multiple = p.copy();
        table[0] = toCached(multiple);
        Ext two = new Ext();
        dbl(p, two, true);
        copyInto(two, multiple);
        table[1] = toCached(multiple);
        for (int i = 2; i < 8; i++) {
            add(multiple, table[0], false, multiple);
            table[i] = toCached(multiple);
        }

        int[] e = signedRadix16(k);
        Cached selected = new Cached();
        Ext acc = identity();
        select(table, e[63], selected);
        add(acc, selected, false, acc);
        for (int i = 62; i >= 0; i--) {
            dbl(acc, acc, false);
            dbl(acc, acc, false);
            dbl(acc, acc, false);
            dbl(acc, acc, true);
            select(table, e[i], selected);
            add(acc, selected, false, acc);
        }
        return acc;
    }

    /** Width of the variable-time window NAF. */
    private static final int WNAF_WIDTH = 5;

    /**
     * Width-5 NAF of a 32-byte little-endian scalar: digits odd in (-16, 16) or zero, no two
     * non-zero digits closer than 5 positions. Variable-time; public scalars only.
     */
    static byte[] wnaf(byte[] scalar) {
        byte[] naf = new byte[256 + WNAF_WIDTH + 1];
        int carry = 0;
        int pos = 0;
        while (pos < 256) {
            int bit = (scalar[pos >>> 3] >>> (pos & 7)) & 1;
            if (bit == carry) {
                pos++;
                continue;
            }
            int word = carry;
            for (int j = 0; j < WNAF_WIDTH && pos + j < 256; j++) {
                word += ((scalar[(pos + j) >>> 3] >>> ((pos + j) & 7)) & 1) << j;
            }
            int digit = word;
            carry = 0;
            if (word >= 1 << (WNAF_WIDTH - 1)) {
                digit = word - (1 << WNAF_WIDTH);
                carry = 1;
            }
            naf[pos] = (byte) digit;
            pos += WNAF_WIDTH;
        }
        if (carry != 0) {
            naf[pos] = 1;
        }
        return naf;
    }

    /**
     * Variable-time k*p (width-5 window NAF over the odd multiples p, 3p, ..., 15p), for public
     * points and scalars only (verification).
     */
    static Ext multiplyVar(Ext p, byte[] k) {
        Cached[] odd = new Cached[1 << (WNAF_WIDTH - 2)];
        odd[0] = toCached(p);
        Ext two = new Ext();
        dbl(p, two, true);
        Cached twoCached = toCached(two);
        Ext multiple = p.copy();
        for (int i = 1; i < odd.length; i++) {
            add(multiple, twoCached, false, multiple);
            odd[i] = toCached(multiple);
        }
        byte[] naf = wnaf(k);
        int top = naf.length - 1;
        while (top >= 0 && naf[top] == 0) {
            top--;
        }
        Ext acc = identity();
        for (int i = top; i >= 0; i--) {
            int digit = naf[i];
            if (i < top) {
                dbl(acc, acc, digit != 0 || i == 0);
            }
            if (digit != 0) {
                add(acc, odd[Math.abs(digit) >>> 1], digit < 0, acc);
            }
        }
        return acc;
    }

    private static void select(Cached[] table, int digit, Cached out) {
        int neg = digit >>> 31;
        int abs = (digit ^ -neg) + neg;
        X25519Field.one(out.ypx);
        X25519Field.one(out.ymx);
        X25519Field.one(out.z2);
        X25519Field.add(out.z2, out.z2, out.z2);
        X25519Field.zero(out.t2d);
        for (int m = 0; m < 8; m++) {
            int mask = ((abs ^ (m + 1)) - 1) >> 31;
            X25519Field.cmov(mask, table[m].ypx, 0, out.ypx, 0);
            X25519Field.cmov(mask, table[m].ymx, 0, out.ymx, 0);
            X25519Field.cmov(mask, table[m].z2, 0, out.z2, 0);
            X25519Field.cmov(mask, table[m].t2d, 0, out.t2d, 0);
        }
        X25519Field.cswap(neg, out.ypx, out.ymx);
        X25519Field.cnegate(neg, out.t2d);
    }

    /** Constant-time k*B for a scalar k below 2^255, from the precomputed base table. */
    static Ext multiplyBase(byte[] k) {
        int[] table = BaseTable.TABLE;
        int[] e = signedRadix16(k);
        Affine selected = new Affine();
        Ext acc = identity();
        for (int i = 1; i < 64; i += 2) {
            selectBase(table, i >>> 1, e[i], selected);
            addAffine(acc, selected, acc);
        }
        dbl(acc, acc, false);
        dbl(acc, acc, false);
        dbl(acc, acc, false);
        dbl(acc, acc, true);
        for (int i = 0; i < 64; i += 2) {
            selectBase(table, i >>> 1, e[i], selected);
            addAffine(acc, selected, acc);
        }
        return acc;
    }

    private static void selectBase(int[] table, int block, int digit, Affine out) {
        int neg = digit >>> 31;
        int abs = (digit ^ -neg) + neg;
        X25519Field.one(out.ypx);
        X25519Field.one(out.ymx);
        X25519Field.zero(out.xy2d);
        int off = block * 8 * BaseTable.ENTRY;
        for (int m = 0; m < 8; m++) {
            int mask = ((abs ^ (m + 1)) - 1) >> 31;
            X25519Field.cmov(mask, table, off, out.ypx, 0);
            X25519Field.cmov(mask, table, off + F_SIZE, out.ymx, 0);
            X25519Field.cmov(mask, table, off + 2 * F_SIZE, out.xy2d, 0);
            off += BaseTable.ENTRY;
        }
        X25519Field.cswap(neg, out.ypx, out.ymx);
        X25519Field.cnegate(neg, out.xy2d);
    }

    /**
     * Table of (m+1) 256^j B for j in [0, 32), m in [0, 8), affine, as consecutive (y+x, y-x,
     * 2dxy) field elements. Built on first use (holder idiom).
     */
    private static final class BaseTable {
        static final int ENTRY = 3 * F_SIZE;
        static final int[] TABLE = build();

        private static int[] build() {
            int[] table = new int[32 * 8 * ENTRY];
            Ext blockBase = BASE.copy();
            int[] zInv = X25519Field.create();
            int[] x = X25519Field.create();
            int[] y = X25519Field.create();
            int[] xy = X25519Field.create();
            int[] tmp = X25519Field.create();
            int off = 0;
            for (int j = 0; j < 32; j++) {
                Cached first = toCached(blockBase);
                Ext multiple = blockBase.copy();
                for (int m = 0; m < 8; m++) {
                    if (m > 0) {
                        add(multiple, first, false, multiple);
                    }
                    X25519Field.inv(multiple.z, zInv);
                    X25519Field.mul(multiple.x, zInv, x);
                    X25519Field.mul(multiple.y, zInv, y);
                    X25519Field.normalize(x);
                    X25519Field.normalize(y);
                    X25519Field.apm(y, x, tmp, xy);
                    X25519Field.normalize(tmp);
                    X25519Field.normalize(xy);
                    X25519Field.copy(tmp, 0, table, off);
                    X25519Field.copy(xy, 0, table, off + F_SIZE);
                    X25519Field.mul(x, y, xy);
                    X25519Field.mul(xy, D2, xy);
                    X25519Field.normalize(xy);
                    X25519Field.copy(xy, 0, table, off + 2 * F_SIZE);
                    off += ENTRY;
                }
                for (int i = 0; i < 8; i++) {
                    dbl(blockBase, blockBase, i == 7);
                }
            }
            return table;
        }
    }
}
