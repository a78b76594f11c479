package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps parsed JSON (from {@code internal.Json}) onto the LSVID records. It is deliberately
 * permissive about shape details Go tolerates ({@code null} for an absent member, unknown keys):
 * the codec's canonical round-trip check rejects every such difference afterwards. Wrong types
 * are {@link ErrorCode#MALFORMED}; over-long string claims are {@link ErrorCode#LIMIT_EXCEEDED}.
 *
 * <p>Recursion follows the JSON nesting, which the codec bounds before parsing.
 *
 * <p>Thread safety: stateless.
 */
final class LsvidJsonReader {

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private LsvidJsonReader() {}

    static Lsvid document(Map<String, Object> json, Limits limits) {
        Map<String, Object> token = object(json.get("token"), "token");
        if (token == null) {
            throw malformed("missing token");
        }
        Map<String, Object> bundle = object(json.get("bundle"), "bundle");
        return new Lsvid(token(token, limits), bundle == null ? null : token(bundle, limits));
    }

    static LsvidToken token(Map<String, Object> json, Limits limits) {
        Map<String, Object> nested = object(json.get("nested"), "nested");
        Map<String, Object> payload = object(json.get("payload"), "payload");
        if (payload == null) {
            throw malformed("token without payload");
        }
        Object sig = json.get("signature");
        byte[] signature;
        if (sig == null) {
            signature = null;
        } else if (sig instanceof String s) {
            signature = Codec.fromB64std(s);
        } else {
            throw malformed("signature is not a string");
        }
        return new LsvidToken(nested == null ? null : token(nested, limits), payload(payload, limits), signature);
    }

    static LsvidPayload payload(Map<String, Object> json, Limits limits) {
        long ver = integer(json.get("ver"), "ver");
        if (ver < Byte.MIN_VALUE || ver > Byte.MAX_VALUE) {
            throw malformed("ver out of range");
        }
        Map<String, Object> sel = object(json.get("sel"), "sel");
        Map<String, Object> data = object(json.get("data"), "data");
        Map<String, String> dataStrings = null;
        if (data != null) {
            dataStrings = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : data.entrySet()) {
                dataStrings.put(e.getKey(), string(e.getValue(), "data", limits));
            }
        }
        return new LsvidPayload(
                (int) ver,
                string(json.get("alg"), "alg", limits),
                integer(json.get("iat"), "iat"),
                integer(json.get("exp"), "exp"),
                idClaim(json.get("iss"), "iss", limits),
                idClaim(json.get("sub"), "sub", limits),
                idClaim(json.get("aud"), "aud", limits),
                string(json.get("dpa"), "dpa", limits),
                string(json.get("dpr"), "dpr", limits),
                sel,
                dataStrings);
    }

    private static IdClaim idClaim(Object value, String name, Limits limits) {
        Map<String, Object> json = object(value, name);
        if (json == null) {
            return null;
        }
        Object pk = json.get("pk");
        if (pk != null && !(pk instanceof String)) {
            throw malformed(name + ".pk is not a string");
        }
        Object x5c = json.get("x5c");
        List<byte[]> certs = null;
        if (x5c instanceof List<?> list) {
            certs = new ArrayList<>(list.size());
            for (Object o : list) {
                if (!(o instanceof String s)) {
                    throw malformed(name + ".x5c entry is not a string");
                }
                certs.add(Codec.fromB64std(s));
            }
        } else if (x5c != null) {
            throw malformed(name + ".x5c is not an array");
        }
        Map<String, Object> id = object(json.get("id"), name + ".id");
        return new IdClaim(
                string(json.get("cn"), name + ".cn", limits),
                pk == null ? null : Codec.fromB64std((String) pk),
                certs,
                id == null ? null : token(id, limits));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String name) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof Map)) {
            throw malformed(name + " is not an object");
        }
        return (Map<String, Object>) value;
    }

    private static String string(Object value, String name, Limits limits) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            throw malformed(name + " is not a string");
        }
        if (s.length() > limits.maxClaimLength()) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "claim " + name + " over the length limit");
        }
        return s;
    }

    private static long integer(Object value, String name) {
        if (value == null) {
            return 0;
        }
        if (!(value instanceof BigInteger i)) {
            throw malformed(name + " is not an integer");
        }
        if (i.compareTo(LONG_MIN) < 0 || i.compareTo(LONG_MAX) > 0) {
            throw malformed(name + " out of range");
        }
        return i.longValue();
    }

    private static AssertionException malformed(String what) {
        return new AssertionException(ErrorCode.MALFORMED, what);
    }
}
