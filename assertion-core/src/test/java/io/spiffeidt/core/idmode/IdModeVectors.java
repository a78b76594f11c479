package io.spiffeidt.core.idmode;

import io.spiffeidt.core.internal.Json;
import io.spiffeidt.testkit.GoldenVectors;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** Reads the golden vectors of {@code vectors/id-mode/} (test resources; the vectors README, section 4). */
final class IdModeVectors {

    private IdModeVectors() {}

    static List<String> names() {
        return GoldenVectors.names(GoldenVectors.Mode.ID_MODE);
    }

    static Map<String, Object> load(String name) {
        return Json.parseObject(GoldenVectors.text(GoldenVectors.Mode.ID_MODE, name));
    }

    static String keyFile(String file) {
        return GoldenVectors.keyFile(file);
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
