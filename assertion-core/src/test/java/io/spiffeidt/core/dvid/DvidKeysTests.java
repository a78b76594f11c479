package io.spiffeidt.core.dvid;

import static io.spiffeidt.core.dvid.DvidTestSupport.BC;
import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.Jwks;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Security;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link DvidKeys} and {@link DvidKeyResolver}: JWKS out and in, thumbprints. */
class DvidKeysTests {

    private static final RSAPublicKey RSA =
            (RSAPublicKey) DvidTestSupport.assertingKeyPair().getPublic();

    private static ECPublicKey ec() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC", BC);
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return (ECPublicKey) g.generateKeyPair().getPublic();
    }

    private static void assertCode(String jwks, ErrorCode code) {
        assertThatAssertion(() -> DvidKeys.parse(jwks, BC)).hasCode(code);
    }

    private static Map<String, Object> rsaJwk() {
        return new TreeMap<>(Json.parseObject(DvidKeys.jwk(RSA)));
    }

    private static String set(Map<String, Object> jwk) {
        return Json.write(Map.of("keys", List.of(jwk)));
    }

    @Test
    void verifyWhenRfc7638ExampleKeyThenItsPublishedThumbprint() throws GeneralSecurityException {
        // RFC 7638 section 3.1
        String n = "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECP"
                + "ebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY3"
                + "68QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4"
                + "lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
        PublicKey key = KeyFactory.getInstance("RSA", BC)
                .generatePublic(
                        new RSAPublicKeySpec(new BigInteger(1, Codec.fromB64url(n)), BigInteger.valueOf(65537)));
        assertThat(DvidKeys.thumbprint(key)).isEqualTo("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
    }

    @Test
    void verifyWhenRsaJwksWrittenThenPublicOnlyWithKidAlgUseAndParsesBack() {
        String jwks = DvidKeys.jwks(RSA);
        Map<String, Object> jwk = rsaJwk();

        assertThat(jwk.keySet()).containsExactly("alg", "e", "kid", "kty", "n", "use");
        assertThat(jwk)
                .containsEntry("alg", "RS256")
                .containsEntry("kty", "RSA")
                .containsEntry("use", "sig");
        assertThat(jwk).containsEntry("kid", DvidKeys.thumbprint(RSA)).containsEntry("e", "AQAB");
        Map<String, PublicKey> parsed = DvidKeys.parse(jwks, BC);
        assertThat(parsed).containsOnlyKeys(DvidKeys.thumbprint(RSA));
        assertThat(parsed.get(DvidKeys.thumbprint(RSA))).isEqualTo(RSA);
    }

    @Test
    void verifyWhenVectorJwkThenSameKeyAsItsPem() {
        Map<String, Object> jwk =
                DvidTestSupport.at(DvidTestSupport.vector001(), "inputs.keys.asserting_wl_dasvid_key.jwk");
        assertThat(DvidKeys.parse(set(jwk), BC)).containsEntry("", RSA);
        assertThat(DvidKeys.parseJwk(Json.write(jwk), Security.getProvider("SunRsaSign")))
                .isEqualTo(RSA);
    }

    @Test
    void verifyWhenEcJwksWrittenThenParsesBackWithBouncyCastleAndSunEc() throws GeneralSecurityException {
        ECPublicKey ec = ec();
        String jwks = DvidKeys.jwks(RSA, ec);
        Map<String, Object> jwk = Json.parseObject(DvidKeys.jwk(ec));
        assertThat(jwk.keySet()).containsExactly("alg", "crv", "kid", "kty", "use", "x", "y");
        assertThat(Codec.fromB64url((String) jwk.get("x"))).hasSize(32);
        for (var provider : List.of(BC, Security.getProvider("SunEC"))) {
            PublicKey back = DvidKeys.parseJwk(DvidKeys.jwk(ec), provider);
            assertThat(((ECPublicKey) back).getW()).isEqualTo(ec.getW());
        }
        assertThat(DvidKeys.parse(jwks, BC)).containsOnlyKeys(DvidKeys.thumbprint(RSA), DvidKeys.thumbprint(ec));
    }

    @Test
    void verifyWhenKidsGivenThenWrittenInOrder() {
        String jwks = DvidKeys.jwks(new java.util.LinkedHashMap<>(Map.of("", RSA)));
        assertThat(DvidKeys.parse(jwks, BC)).containsOnlyKeys("");
        assertThat(DvidKeys.kidOf(DvidKeys.jwk(RSA, "idp-test-kid"))).isEqualTo("idp-test-kid");
    }

    @ParameterizedTest
    @ValueSource(strings = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"})
    void verifyWhenPrivateMemberPresentThenMalformed(String member) {
        Map<String, Object> jwk = rsaJwk();
        jwk.put(member, "AQAB");
        assertCode(set(jwk), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenUnsupportedTypeAlgUseOrCurveThenUnsupported() throws GeneralSecurityException {
        Map<String, Object> oct = new TreeMap<>(Map.of("kty", "oct", "kid", "h"));
        assertCode(set(oct), ErrorCode.UNSUPPORTED);
        Map<String, Object> alg = rsaJwk();
        alg.put("alg", "HS256");
        assertCode(set(alg), ErrorCode.UNSUPPORTED);
        Map<String, Object> es = rsaJwk();
        es.put("alg", "ES256");
        assertCode(set(es), ErrorCode.UNSUPPORTED);
        Map<String, Object> enc = rsaJwk();
        enc.put("use", "enc");
        assertCode(set(enc), ErrorCode.UNSUPPORTED);
        Map<String, Object> curve = new TreeMap<>(Json.parseObject(DvidKeys.jwk(ec())));
        curve.put("crv", "P-384");
        assertCode(set(curve), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenRsaKeyTooSmallThenUnsupported() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", BC);
        g.initialize(1024);
        KeyPair weak = g.generateKeyPair();
        Map<String, Object> jwk = rsaJwk();
        jwk.put("n", Codec.b64url(Jwks.unsigned(((RSAPublicKey) weak.getPublic()).getModulus())));
        assertCode(set(jwk), ErrorCode.UNSUPPORTED);
        assertThatAssertion(() -> DvidKeys.jwk(weak.getPublic())).hasCode(ErrorCode.UNSUPPORTED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"AQ", "Ag", "AAE", "AQAAAAAAAAAAAQ"})
    void verifyWhenRsaExponentIsDegenerateOrHugeThenUnsupported(String e) {
        Map<String, Object> jwk = rsaJwk();
        jwk.put("e", e);
        assertCode(set(jwk), ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenEcPointNotOnTheCurveThenMalformed() throws GeneralSecurityException {
        Map<String, Object> jwk = new TreeMap<>(Json.parseObject(DvidKeys.jwk(ec())));
        byte[] y = Codec.fromB64url((String) jwk.get("y"));
        y[31] ^= 0x01;
        jwk.put("y", Codec.b64url(y));
        assertCode(set(jwk), ErrorCode.MALFORMED);
        jwk.put("y", Codec.b64url(new byte[31]));
        assertCode(set(jwk), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenStructureWrongThenMalformed() {
        Map<String, Object> jwk = rsaJwk();
        assertCode(Json.write(Map.of("keys", List.of(jwk, jwk))), ErrorCode.MALFORMED);
        assertCode("{\"keys\":{}}", ErrorCode.MALFORMED);
        assertCode("{}", ErrorCode.MALFORMED);
        assertCode("{\"keys\":[1]}", ErrorCode.MALFORMED);
        assertCode("not json", ErrorCode.MALFORMED);
        assertCode(null, ErrorCode.MALFORMED);
        Map<String, Object> badN = rsaJwk();
        badN.put("n", "not+base64url");
        assertCode(set(badN), ErrorCode.MALFORMED);
        Map<String, Object> noE = rsaJwk();
        noE.remove("e");
        assertCode(set(noE), ErrorCode.MALFORMED);
        Map<String, Object> numericKid = rsaJwk();
        numericKid.put("kid", 5);
        assertCode(set(numericKid), ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenTooLongOrTooManyKeysThenLimitExceeded() {
        assertCode(" ".repeat(DvidKeys.MAX_JWKS_LENGTH + 1), ErrorCode.LIMIT_EXCEEDED);
        List<Object> many = new java.util.ArrayList<>();
        for (int i = 0; i <= DvidKeys.MAX_KEYS; i++) {
            Map<String, Object> jwk = rsaJwk();
            jwk.put("kid", "k" + i);
            many.add(jwk);
        }
        assertCode(Json.write(Map.of("keys", many)), ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenResolverAskedForAnUnknownKidThenUntrustedKey() {
        DvidKeyResolver resolver = DvidKeyResolver.of(DvidKeys.parse(DvidKeys.jwks(RSA), BC));
        assertThat(resolver.resolve(DvidKeys.thumbprint(RSA))).isEqualTo(RSA);
        assertThatAssertion(() -> resolver.resolve("other")).hasCode(ErrorCode.UNTRUSTED_KEY);
        assertThatAssertion(() -> resolver.resolve("")).hasCode(ErrorCode.UNTRUSTED_KEY);
    }
}
