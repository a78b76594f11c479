package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;

/**
 * Fail-closed wrappers around the shared JSON reader for this package: any failure of the reader
 * becomes {@link ErrorCode#MALFORMED} (the reader can throw {@link NumberFormatException} for an
 * exponent beyond {@code int}), and NumericDates are range-checked before a decimal is expanded
 * (expanding {@code 1e999999999} would not finish).
 *
 * <p>Thread safety: stateless.
 */
final class IdModeJson {

    /** 9999-12-31T23:59:59Z, the largest NumericDate accepted. */
    private static final BigInteger MAX_SECONDS = BigInteger.valueOf(253402300799L);

    private static final BigDecimal MAX_SECONDS_DECIMAL = new BigDecimal(MAX_SECONDS);

    private IdModeJson() {}

    /** One JSON value. */
    static Object parse(String text, int layer) {
        try {
            return Json.parse(text);
        } catch (AssertionException e) {
            if (e.code() == ErrorCode.LIMIT_EXCEEDED) {
                throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, layer, "JSON over a limit");
            }
            throw new AssertionException(ErrorCode.MALFORMED, layer, "invalid JSON");
        } catch (RuntimeException e) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "invalid JSON");
        }
    }

    /** One JSON object. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(String text, int layer) {
        Object v = parse(text, layer);
        if (!(v instanceof Map)) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "JSON value is not an object");
        }
        return (Map<String, Object>) v;
    }

    /** An optional NumericDate claim: a non-negative number up to year 9999, fraction truncated. */
    static Instant optTime(Map<String, Object> claims, String name, int layer) {
        Object v = claims.get(name);
        if (v == null) {
            return null;
        }
        BigInteger secs;
        if (v instanceof BigInteger bi) {
            secs = bi;
        } else if (v instanceof BigDecimal bd) {
            if (bd.signum() < 0 || bd.compareTo(MAX_SECONDS_DECIMAL) > 0) {
                throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " out of range");
            }
            secs = bd.toBigInteger();
        } else {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " is not a number");
        }
        if (secs.signum() < 0 || secs.compareTo(MAX_SECONDS) > 0) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " out of range");
        }
        return Instant.ofEpochSecond(secs.longValueExact());
    }
}
