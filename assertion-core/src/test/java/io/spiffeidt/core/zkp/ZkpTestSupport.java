package io.spiffeidt.core.zkp;

import io.spiffeidt.core.internal.Json;
import io.spiffeidt.testkit.GoldenVectors;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/** Shared test material of the proof: the golden vectors' IdP key and OAuth token (vectors/dvid). */
final class ZkpTestSupport {

    static final Provider BC = new BouncyCastleProvider();

    static final String DPA = "https://idp.example.test/oauth2/default";
    static final String DPR = "alice@example.test";
    static final String IDP_KID = "idp-test-kid";

    private static Map<String, Object> vector001;

    private ZkpTestSupport() {}

    static Map<String, Object> readVector(String name) {
        return Json.parseObject(GoldenVectors.text(GoldenVectors.Mode.DVID, name));
    }

    static synchronized Map<String, Object> vector001() {
        if (vector001 == null) {
            vector001 = readVector("001_dasvid_fixed_clock.json");
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

    static KeyPair idpKeyPair() {
        Map<String, Object> v = vector001();
        return new KeyPair(
                publicKey(at(v, "inputs.keys.idp.public_key_pem")),
                privateKey(at(v, "inputs.keys.idp.private_key_pkcs8_pem")));
    }

    static RSAPublicKey idpPublicKey() {
        return (RSAPublicKey) idpKeyPair().getPublic();
    }

    /** Another RSA key of the vectors (the asserting workload's DVID key): not the IdP's. */
    static RSAPublicKey otherRsaPublicKey() {
        return (RSAPublicKey) publicKey(at(vector001(), "inputs.keys.asserting_wl_dasvid_key.public_key_pem"));
    }

    /** The vectors' fake OAuth access token (RS256 by the IdP key, exp 4102444800). */
    static String oauthToken() {
        return at(vector001(), "inputs.oauth.token");
    }

    private static PublicKey publicKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA", BC).generatePublic(new X509EncodedKeySpec(pemBody(pem)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PrivateKey privateKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA", BC).generatePrivate(new PKCS8EncodedKeySpec(pemBody(pem)));
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
}
