package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.internal.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Reads the golden vectors of {@code shared/vectors/anon-mode/} (README section 5). */
final class AnonModeVectors {

    private AnonModeVectors() {}

    static Path directory() {
        String prop = System.getProperty("spiffeidt.shared.dir");
        Path shared = prop != null ? Path.of(prop) : Path.of("..", "..", "shared");
        return shared.resolve("vectors").resolve("anon-mode");
    }

    /** The vector file names without {@code .json}, sorted. */
    static List<String> names() {
        try (Stream<Path> files = Files.list(directory())) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - ".json".length()))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> load(String name) {
        try {
            return Json.parseObject(Files.readString(directory().resolve(name + ".json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
