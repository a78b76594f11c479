package io.spiffeidt.core.idmode;

import io.spiffeidt.core.internal.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Reads the golden vectors of {@code shared/vectors/id-mode} (see the vectors README, section 4). */
final class IdModeVectors {

    private IdModeVectors() {}

    static Path sharedDir() {
        String prop = System.getProperty("spiffeidt.shared.dir");
        return prop != null && !prop.isBlank() ? Path.of(prop) : Path.of("..", "..", "shared");
    }

    static Path dir() {
        return sharedDir().resolve("vectors").resolve("id-mode");
    }

    static List<String> names() {
        try (Stream<Path> files = Files.list(dir())) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - 5))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> load(String name) {
        return Json.parseObject(read(dir().resolve(name + ".json")));
    }

    static String read(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String keyFile(String file) {
        return read(sharedDir().resolve("vectors").resolve("keys").resolve(file));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    static Map<String, Object> at(Map<String, Object> root, String... path) {
        Map<String, Object> m = root;
        for (String p : path) {
            m = map(m.get(p));
        }
        return m;
    }

    static X509Certificate certificate(String pem) {
        return io.spiffeidt.core.internal.X509Svids.parseDer(pemBody(pem)).get(0);
    }

    static PrivateKey privateKey(String pem) {
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pemBody(pem)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] pemBody(String pem) {
        String body = pem.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }
}
