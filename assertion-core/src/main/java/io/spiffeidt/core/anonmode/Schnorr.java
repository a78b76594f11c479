package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.bouncycastle.crypto.digests.SHA256Digest;

/**
 * The Schnorr signature of Anon-Mode (docs/formats/anon-mode.md "Signature"; the Galindo-Garcia variant
 * the original uses, note the minus sign; this is not EdDSA):
 *
 * <ul>
 *   <li>challenge {@code h = H(hex(R) + m + hex(Y))}, plain text concatenation;
 *   <li>sign: {@code R = k·B}, {@code s = k - h·x mod L};
 *   <li>verify: {@code s·B == R - h·Y}.
 * </ul>
 *
 * <p>Thread safety: stateless; a fresh digest per call.
 */
public final class Schnorr {

    private Schnorr() {}

    /**
     * The challenge {@code h = H(hex(R) + message + hex(Y))}.
     *
     * @param commitment {@code R}
     * @param message the signed text {@code m}
     * @param publicKey {@code Y}
     * @return {@code h}
     */
    public static Scalar challenge(Point commitment, String message, Point publicKey) {
        return challenge(commitment.encoding(), message, publicKey.encoding());
    }

    /** The challenge from the encodings of {@code R} and {@code Y}. */
    static Scalar challenge(byte[] commitment, String message, byte[] publicKey) {
        SHA256Digest digest = new SHA256Digest();
        update(digest, Codec.hex(commitment));
        update(digest, message);
        update(digest, Codec.hex(publicKey));
        return Scalar.fromDigest(digest);
    }

    private static void update(SHA256Digest digest, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        digest.update(bytes, 0, bytes.length);
    }

    /**
     * Signs {@code message} with {@code key}.
     *
     * @param key the signing key {@code (x, Y)}
     * @param message the text {@code m}
     * @param nonces where the nonce {@code k} comes from
     * @return {@code (R, s)}
     * @throws IllegalStateException when the nonce source yields zero
     */
    public static SchnorrSignature sign(SchnorrKeyPair key, String message, NonceSource nonces) {
        Objects.requireNonNull(message, "message");
        Scalar k = nonces.next();
        if (k == null || k.isZero()) {
            throw new IllegalStateException("nonce source yielded no usable nonce");
        }
        Point r = Point.multiplyBase(k);
        Scalar h = challenge(r, message, key.publicKey());
        Scalar s = k.subtract(h.multiply(key.secret()));
        return new SchnorrSignature(r, s);
    }

    /**
     * Verifies {@code s·B == R - h·Y}, fail-closed.
     *
     * @param publicKey {@code Y}; must not be of small order
     * @param message the text {@code m}
     * @param signature {@code (R, s)}; {@code R} must not be of small order
     * @throws AssertionException {@link ErrorCode#BAD_SIGNATURE} when the equation does not hold or
     *     a point is of small order
     */
    public static void verify(Point publicKey, String message, SchnorrSignature signature) {
        if (publicKey.isSmallOrder() || signature.commitment().isSmallOrder()) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, "small-order key or commitment");
        }
        Scalar h = challenge(signature.commitment(), message, publicKey);
        if (!holds(publicKey, h, signature.commitment(), signature.response())) {
            throw new AssertionException(ErrorCode.BAD_SIGNATURE, "Schnorr signature does not verify");
        }
    }

    /** Whether {@code s·B + h·Y == R}, i.e. {@code s·B == R - h·Y}. */
    static boolean holds(Point publicKey, Scalar h, Point commitment, Scalar s) {
        Point lhs = Point.multiplyBase(s).add(publicKey.multiplyPublic(h));
        return lhs.equals(commitment);
    }
}
