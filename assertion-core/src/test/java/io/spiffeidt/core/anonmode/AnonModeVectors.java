package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.internal.Json;
import io.spiffeidt.testkit.GoldenVectors;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/** Reads the golden vectors of {@code vectors/anon-mode/} (test resources; the vectors README, section 5). */
final class AnonModeVectors {

    private AnonModeVectors() {}

    /** The vector file names without {@code .json}, sorted. */
    static List<String> names() {
        return GoldenVectors.names(GoldenVectors.Mode.ANON_MODE);
    }

    static Map<String, Object> load(String name) {
        return Json.parseObject(GoldenVectors.text(GoldenVectors.Mode.ANON_MODE, name));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> parent, String key) {
        Object v = parent.get(key);
        if (!(v instanceof Map)) {
            throw new IllegalStateException("vector field " + key + " is not an object");
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Map<String, Object> parent, String key) {
        Object v = parent.get(key);
        if (!(v instanceof List)) {
            throw new IllegalStateException("vector field " + key + " is not a list");
        }
        return (List<Object>) v;
    }

    static String string(Map<String, Object> parent, String key) {
        Object v = parent.get(key);
        if (!(v instanceof String s)) {
            throw new IllegalStateException("vector field " + key + " is not a string");
        }
        return s;
    }

    static long number(Map<String, Object> parent, String key) {
        Object v = parent.get(key);
        if (!(v instanceof BigInteger n)) {
            throw new IllegalStateException("vector field " + key + " is not an integer");
        }
        return n.longValueExact();
    }
}
