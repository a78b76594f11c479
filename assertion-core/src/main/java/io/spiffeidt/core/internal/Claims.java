package io.spiffeidt.core.internal;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;

/**
 * Typed, fail-closed access to parsed JSON claims. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class Claims {

    private static final BigInteger MAX_SECONDS = BigInteger.valueOf(253402300799L); // 9999-12-31

    private Claims() {}

    /** An optional string claim; a non-string value is {@link ErrorCode#MALFORMED}. */
    public static String optString(Map<String, Object> claims, String name, Limits limits, int layer) {
        Object v = claims.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " is not a string");
        }
        if (s.length() > limits.maxClaimLength()) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, layer, "claim " + name + " over the length limit");
        }
        return s;
    }

    /** A required string claim. */
    public static String string(Map<String, Object> claims, String name, Limits limits, int layer) {
        String s = optString(claims, name, limits, layer);
        if (s == null || s.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing claim " + name);
        }
        return s;
    }

    /** An optional NumericDate claim (integral seconds; a fraction is accepted and truncated). */
    public static Instant optTime(Map<String, Object> claims, String name, int layer) {
        Object v = claims.get(name);
        if (v == null) {
            return null;
        }
        BigInteger secs;
        if (v instanceof BigInteger bi) {
            secs = bi;
        } else if (v instanceof BigDecimal bd) {
            // range first: toBigInteger() of 1e999999999 would not finish
            if (bd.signum() < 0 || bd.compareTo(new BigDecimal(MAX_SECONDS)) > 0) {
                throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " out of range");
            }
            secs = bd.toBigInteger();
        } else if (v instanceof Number n) {
            secs = BigInteger.valueOf(n.longValue());
        } else {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " is not a number");
        }
        if (secs.signum() < 0 || secs.compareTo(MAX_SECONDS) > 0) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " out of range");
        }
        return Instant.ofEpochSecond(secs.longValueExact());
    }

    /** The earlier of two instants; {@code null} counts as "no bound". */
    public static Instant min(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.isBefore(b) ? a : b;
    }
}
