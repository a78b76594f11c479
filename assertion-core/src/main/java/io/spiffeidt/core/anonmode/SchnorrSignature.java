package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.util.Arrays;
import java.util.Objects;

/**
 * A Schnorr signature {@code (R, s)} of Anon-Mode (docs/formats/anon-mode.md "Signature"); its wire form
 * is {@code enc(R) ‖ enc(s)}, 64 bytes, the outermost segment {@code F} of a token.
 *
 * <p>Thread safety: immutable.
 *
 * @param commitment {@code R = k·B}
 * @param response {@code s = k - h·x mod L}
 */
public record SchnorrSignature(Point commitment, Scalar response) {

    /** Length of the wire form. */
    public static final int LENGTH = 64;

    /** Requires both parts. */
    public SchnorrSignature {
        Objects.requireNonNull(commitment, "commitment");
        Objects.requireNonNull(response, "response");
    }

    /**
     * Strictly decodes {@code enc(R) ‖ enc(s)}.
     *
     * @param encoding exactly 64 bytes
     * @return the signature
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a wrong length, a point that does
     *     not decode, or {@code s >= L}
     */
    public static SchnorrSignature decode(byte[] encoding) {
        if (encoding == null || encoding.length != LENGTH) {
            throw new AssertionException(ErrorCode.MALFORMED, "signature is not 64 bytes");
        }
        Point r = Point.decode(Arrays.copyOfRange(encoding, 0, 32));
        Scalar s = Scalar.decode(Arrays.copyOfRange(encoding, 32, 64));
        return new SchnorrSignature(r, s);
    }

    /** {@code enc(R) ‖ enc(s)} (a new array). */
    public byte[] encode() {
        byte[] out = new byte[LENGTH];
        System.arraycopy(commitment.encoding(), 0, out, 0, 32);
        System.arraycopy(response.bytes(), 0, out, 32, 32);
        return out;
    }
}
