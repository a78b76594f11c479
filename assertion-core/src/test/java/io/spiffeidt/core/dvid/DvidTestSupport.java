package io.spiffeidt.core.dvid;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.testkit.GoldenVectors;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/** Shared test material: the golden vectors' keys and tokens, providers, fixed clocks. */
final class DvidTestSupport {

    static final Provider BC = new BouncyCastleProvider();

    static final SpiffeId ASSERTING = SpiffeId.parse("spiffe://example.org/asserting_wl");
    static final SpiffeId SUBJECT = SpiffeId.parse("spiffe://example.org/subject_wl");
    static final SpiffeId MIDDLE = SpiffeId.parse("spiffe://example.org/middletier");
    static final SpiffeId TARGET = SpiffeId.parse("spiffe://example.org/target_wl");
    static final String DPA = "https://idp.example.test/oauth2/default";
    static final String DPR = "alice@example.test";
    static final String IDP_KID = "idp-test-kid";

    /** A fixed "now" for tests that are not about a vector's own time. */
    static final Instant NOW = Instant.ofEpochSecond(1_750_000_000L);

    private static Map<String, Object> vector001;

    private DvidTestSupport() {}

    /** The vector names (file names without {@code .json}), sorted. */
    static Stream<String> vectorNames() {
        return GoldenVectors.names(GoldenVectors.Mode.DVID).stream();
    }

    static Map<String, Object> readVector(String name) {
        return Json.parseObject(GoldenVectors.text(GoldenVectors.Mode.DVID, name));
    }

    static synchronized Map<String, Object> vector001() {
        if (vector001 == null) {
            vector001 = readVector("001_dasvid_fixed_clock");
        }
        return vector001;
    }

    /** A value at a dotted path of a parsed vector. */
    @SuppressWarnings("unchecked")
    static <T> T at(Map<String, Object> root, String dottedPath) {
        Object node = root;
        for (String part : dottedPath.split("\\.")) {
            node = node == null ? null : ((Map<String, Object>) node).get(part);
        }
        return (T) node;
    }

    static boolean has(Map<String, Object> root, String dottedPath) {
        return at(root, dottedPath) != null;
    }

    static Clock clockAt(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    static Clock clockAt(long epochSecond) {
        return clockAt(Instant.ofEpochSecond(epochSecond));
    }

    static KeyPair assertingKeyPair() {
        Map<String, Object> v = vector001();
        return new KeyPair(
                publicKey(at(v, "inputs.keys.asserting_wl_dasvid_key.public_key_pem"), "RSA"),
                privateKey(at(v, "inputs.keys.asserting_wl_dasvid_key.private_key_pkcs8_pem"), "RSA"));
    }

    static KeyPair idpKeyPair() {
        Map<String, Object> v = vector001();
        return new KeyPair(
                publicKey(at(v, "inputs.keys.idp.public_key_pem"), "RSA"),
                privateKey(at(v, "inputs.keys.idp.private_key_pkcs8_pem"), "RSA"));
    }

    static RSAPublicKey idpPublicKey() {
        return (RSAPublicKey) idpKeyPair().getPublic();
    }

    /** The vectors' fake OAuth access token (RS256 by the IdP key, exp 4102444800). */
    static String oauthToken() {
        return at(vector001(), "inputs.oauth.token");
    }

    static PublicKey publicKey(String pem, String algorithm) {
        try {
            return KeyFactory.getInstance(algorithm, BC).generatePublic(new X509EncodedKeySpec(pemBody(pem)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static PrivateKey privateKey(String pem, String algorithm) {
        try {
            return KeyFactory.getInstance(algorithm, BC).generatePrivate(new PKCS8EncodedKeySpec(pemBody(pem)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] pemBody(String pem) {
        StringBuilder b64 = new StringBuilder();
        for (String line : pem.split("\n")) {
            if (!line.startsWith("-----") && !line.isBlank()) {
                b64.append(line.trim());
            }
        }
        return Base64.getDecoder().decode(b64.toString());
    }

    /** Signs a hand-made JWS (header and payload JSON as given) with SHA256withRSA. */
    static String signRs256(String headerJson, String payloadJson, PrivateKey key) {
        String input = Codec.b64url(headerJson) + "." + Codec.b64url(payloadJson);
        try {
            Signature s = Signature.getInstance("SHA256withRSA", BC);
            s.initSign(key);
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + Codec.b64url(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The decoded JSON of a token segment. */
    static String segmentJson(String token, int index) {
        return new String(Codec.fromB64url(token.split("\\.")[index]), StandardCharsets.UTF_8);
    }

    static List<String> segments(String token) {
        return List.of(token.split("\\.", -1));
    }
}
