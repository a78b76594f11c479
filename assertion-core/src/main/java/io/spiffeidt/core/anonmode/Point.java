package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import java.util.Arrays;

/**
 * A point of edwards25519 (RFC 8032), the group of Anon-Mode (docs/formats/anon-mode.md "Group and
 * encodings"): public keys {@code Y} and commitments {@code R}.
 *
 * <p>Encoding: the 32-byte RFC 8032 compressed form; {@link #toHex()} is its lowercase hex, as the
 * original's {@code Point.String()}. {@link #decode(byte[])} is strict: it rejects a non-canonical
 * {@code y >= p}, the negative-zero form and points not on the curve. Whether a point is of small
 * order (the identity included) is a separate question, {@link #isSmallOrder()}, because only some
 * uses must reject such points.
 *
 * <p>Scalar multiplications ({@link #multiplyBase(Scalar)}, {@link #multiply(Scalar)}) run in
 * constant time with respect to the scalar; decoding and comparisons handle public data and are
 * variable-time. Field arithmetic is BouncyCastle's {@code X25519Field}.
 *
 * <p>Thread safety: immutable (the encoding is computed once, lazily, and published through a
 * volatile field).
 */
public final class Point {

    private static final Point BASE = new Point(Ed25519Group.BASE.copy(), null);
    private static final Point IDENTITY = new Point(Ed25519Group.identity(), null);

    /** Never modified after construction. */
    private final Ed25519Group.Ext ext;

    private volatile byte[] encoded;

    private Point(Ed25519Group.Ext ext, byte[] encoded) {
        this.ext = ext;
        this.encoded = encoded;
    }

    /** The base point B (encoding {@code 5866...66}). */
    public static Point base() {
        return BASE;
    }

    /** The neutral element (encoding {@code 0100...00}). */
    public static Point identity() {
        return IDENTITY;
    }

    /**
     * Strictly decodes a 32-byte compressed point (RFC 8032 section 5.1.3).
     *
     * @param encoding exactly 32 bytes
     * @return the point; may be of small order (see {@link #isSmallOrder()})
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a wrong length, {@code y >= p}, the
     *     negative-zero form, or a point not on the curve
     */
    public static Point decode(byte[] encoding) {
        Ed25519Group.Ext ext = new Ed25519Group.Ext();
        if (encoding == null || !Ed25519Group.decode(encoding, ext)) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a canonical edwards25519 point");
        }
        return new Point(ext, encoding.clone());
    }

    /**
     * {@code k·B}, constant-time in {@code k}, from a precomputed table.
     *
     * @param k the scalar
     * @return the product
     */
    public static Point multiplyBase(Scalar k) {
        return new Point(Ed25519Group.multiplyBase(k.bytes()), null);
    }

    /**
     * {@code k·this}, constant-time in {@code k}.
     *
     * @param k the scalar
     * @return the product
     */
    public Point multiply(Scalar k) {
        return new Point(Ed25519Group.multiply(ext, k.bytes()), null);
    }

    /** {@code k·this} in variable time: only for public points and scalars (verification). */
    Point multiplyPublic(Scalar k) {
        return new Point(Ed25519Group.multiplyVar(ext, k.bytes()), null);
    }

    /** {@code this + other}. */
    public Point add(Point other) {
        Ed25519Group.Ext r = new Ed25519Group.Ext();
        Ed25519Group.add(ext, Ed25519Group.toCached(other.ext), false, r);
        return new Point(r, null);
    }

    /** {@code this - other}. */
    public Point subtract(Point other) {
        Ed25519Group.Ext r = new Ed25519Group.Ext();
        Ed25519Group.add(ext, Ed25519Group.toCached(other.ext), true, r);
        return new Point(r, null);
    }

    /** {@code -this}. */
    public Point negate() {
        Ed25519Group.Ext r = new Ed25519Group.Ext();
        Ed25519Group.negate(ext, r);
        return new Point(r, null);
    }

    /** {@code 2·this}. */
    public Point twice() {
        Ed25519Group.Ext r = new Ed25519Group.Ext();
        Ed25519Group.dbl(ext, r, true);
        return new Point(r, null);
    }

    /** Whether this is the neutral element. */
    public boolean isIdentity() {
        return Ed25519Group.isIdentity(ext);
    }

    /**
     * Whether this is one of the 8 points of small order ({@code 8·P} is the identity), the
     * identity included. Such points are rejected as keys and commitments.
     */
    public boolean isSmallOrder() {
        return Ed25519Group.isSmallOrder(ext);
    }

    /** The 32-byte compressed encoding (a copy). */
    public byte[] encode() {
        return encoding().clone();
    }

    /** Lowercase hex of the encoding (the original's {@code Point.String()}). */
    public String toHex() {
        return Codec.hex(encoding());
    }

    /** base64url of the encoding (the original's {@code Point2string}, the {@code iss} claim). */
    public String toBase64Url() {
        return Codec.b64url(encoding());
    }

    /** The encoding without a copy, for this package only; callers must not modify it. */
    byte[] encoding() {
        byte[] e = encoded;
        if (e == null) {
            e = Ed25519Group.encode(ext, true);
            encoded = e;
        }
        return e;
    }

    /** Compares the encodings. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Point other && Arrays.equals(encoding(), other.encoding());
    }

    /** The hash of the encoding. */
    @Override
    public int hashCode() {
        return Arrays.hashCode(encoding());
    }

    /** The hex encoding (points are public values). */
    @Override
    public String toString() {
        return "Point[" + toHex() + "]";
    }
}
