package io.spiffeidt.asserting.wimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The public key a workload sends for its WIT: an EC P-256 JWK with public members only. */
class WimseAssertingControllerTests {

    private static KeyPair ec(String curve) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec(curve));
        return gen.generateKeyPair();
    }

    private static void assertCode(Map<String, Object> jwk, ErrorCode code) {
        assertThatThrownBy(() -> WimseAssertingController.publicKey(jwk))
                .isInstanceOfSatisfying(
                        AssertionException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void publicKeyWhenP256PublicJwkThenThatKey() throws Exception {
        KeyPair pair = ec("secp256r1");

        assertThat(WimseAssertingController.publicKey(new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                                .build()
                                .toJSONObject())
                        .getEncoded())
                .isEqualTo(pair.getPublic().getEncoded());
    }

    @Test
    void publicKeyWhenPrivateMemberMissingOrUnreadableThenMalformed() throws Exception {
        KeyPair pair = ec("secp256r1");
        Map<String, Object> withPrivate = new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                .privateKey(pair.getPrivate())
                .build()
                .toJSONObject();
        Map<String, Object> offCurve = new HashMap<>(new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                .build()
                .toJSONObject());
        offCurve.put("y", offCurve.get("x"));

        assertCode(withPrivate, ErrorCode.MALFORMED);
        assertCode(null, ErrorCode.MALFORMED);
        assertCode(Map.of(), ErrorCode.MALFORMED);
        assertCode(Map.of("kty", "EC"), ErrorCode.MALFORMED);
        assertCode(offCurve, ErrorCode.MALFORMED);
    }

    @Test
    void publicKeyWhenRsaOrAnotherCurveThenUnsupported() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair p384 = ec("secp384r1");

        assertCode(
                new RSAKey.Builder((RSAPublicKey) rsa.generateKeyPair().getPublic())
                        .build()
                        .toJSONObject(),
                ErrorCode.UNSUPPORTED);
        assertCode(
                new ECKey.Builder(Curve.P_384, (ECPublicKey) p384.getPublic())
                        .build()
                        .toJSONObject(),
                ErrorCode.UNSUPPORTED);
    }
}
