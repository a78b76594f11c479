package io.spiffeidt.core;

/**
 * Resource limits checked before any expensive work (docs/formats/common.md "Limits").
 *
 * <p>Thread safety: immutable.
 *
 * @param maxEncodedSize largest encoded document, bytes (default 256 KiB)
 * @param maxDepth most layers (default 32)
 * @param maxClaimLength longest string claim, bytes (default 2048)
 * @param minZkpRounds fewest ZKP rounds under the strict profile (default 80)
 * @param maxZkpRounds most ZKP rounds (default 256)
 */
public record Limits(int maxEncodedSize, int maxDepth, int maxClaimLength, int minZkpRounds, int maxZkpRounds) {

    /** The defaults of docs/formats/common.md. */
    public static final Limits DEFAULTS = new Limits(256 * 1024, 32, 2048, 80, 256);

    /** Validates the values. */
    public Limits {
        if (maxEncodedSize < 1 || maxDepth < 1 || maxClaimLength < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
        if (minZkpRounds < 1 || maxZkpRounds < minZkpRounds || maxZkpRounds > 256) {
            throw new IllegalArgumentException("ZKP rounds must satisfy 1 <= min <= max <= 256");
        }
    }

    /** The defaults of docs/formats/common.md. */
    public static Limits defaults() {
        return DEFAULTS;
    }

    /**
     * Fails with {@link ErrorCode#LIMIT_EXCEEDED} when {@code size} is over {@link #maxEncodedSize}.
     */
    public void checkEncodedSize(long size) {
        if (size > maxEncodedSize) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED, "encoded size " + size + " over the limit " + maxEncodedSize);
        }
    }

    /** Fails with {@link ErrorCode#LIMIT_EXCEEDED} when {@code depth} is over {@link #maxDepth}. */
    public void checkDepth(int depth) {
        if (depth > maxDepth) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "depth " + depth + " over the limit " + maxDepth);
        }
    }

    /** Fails with {@link ErrorCode#LIMIT_EXCEEDED} when a string claim is longer than allowed. */
    public void checkClaim(String name, String value) {
        if (value != null && value.length() > maxClaimLength) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "claim " + name + " over the length limit");
        }
    }
}
