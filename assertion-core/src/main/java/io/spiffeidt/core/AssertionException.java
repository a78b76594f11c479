package io.spiffeidt.core;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The one unchecked exception root of {@code assertion-core}: every failure of decoding, limits
 * or verification carries a code from {@link ErrorCode} (docs/formats/common.md "Errors").
 *
 * <p>Messages name the code, the layer index and the SPIFFE IDs involved; they never contain
 * token bytes, keys or certificates.
 *
 * <p>Thread safety: immutable.
 */
public class AssertionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final int layer;

    /** A failure not tied to one layer. */
    public AssertionException(ErrorCode code, String message) {
        this(code, -1, message, null);
    }

    /** A failure not tied to one layer, with its cause. */
    public AssertionException(ErrorCode code, String message, Throwable cause) {
        this(code, -1, message, cause);
    }

    /** A failure at layer {@code layer} (0 = root / innermost), or -1 for none. */
    public AssertionException(ErrorCode code, int layer, String message) {
        this(code, layer, message, null);
    }

    /** A failure at layer {@code layer} (0 = root / innermost), or -1 for none, with its cause. */
    public AssertionException(ErrorCode code, int layer, String message, Throwable cause) {
        super(code + (layer >= 0 ? " at layer " + layer : "") + ": " + message, cause);
        this.code = Objects.requireNonNull(code, "code");
        this.layer = layer;
    }

    /** The error code. */
    public ErrorCode code() {
        return code;
    }

    /** The layer index the failure concerns (0 = root / innermost), if any. */
    public OptionalInt layer() {
        return layer >= 0 ? OptionalInt.of(layer) : OptionalInt.empty();
    }
}
