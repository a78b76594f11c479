package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DERSequence;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The hardening issue's attacks against the embedded stack (access tokens, strict bodies, problem
 * details, ID-Mode malleability): each test fails on the behaviour before the fix.
 */
class HardeningAttackIT extends EmbeddedStackIT {

    private static final String INVALID_TOKEN = "Bearer error=\"invalid_token\"";
    private static final BigInteger P256_ORDER =
            new BigInteger("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 16);

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    // ---- 1. an OIDC ID token is no access token

    @Test
    void mintWhenOidcIdTokenInsteadOfAccessTokenThen401InvalidToken() throws Exception {
        Answer issued = idpTokens("user0031");
        String idToken = issued.json().get("id_token").asString();

        HttpResponse<String> answer = post("/api/dvid/mint", idToken, null, Map.of());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
        assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue(INVALID_TOKEN);
        assertThat(code(answer)).isEqualTo("UNSUPPORTED");
        // the access token of the same answer still works
        String accessToken = issued.json().get("access_token").asString();
        assertThat(post("/api/dvid/mint", accessToken, null, Map.of()).statusCode())
                .isEqualTo(200);
    }

    // ---- 2. RFC 6750 answers

    @Test
    void userApiWhenNoTokenThen401WithBareBearerChallenge() throws Exception {
        HttpResponse<String> answer = post("/api/dvid/balance", null, null, Map.of());

        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(code(answer)).isEqualTo("TOKEN_REQUIRED");
    }

    @Test
    void userApiWhenMalformedNoneHs256OrForeignTokenThen401InvalidTokenWithSpecificCode() throws Exception {
        JWTClaimsSet claims = claims();
        SignedJWT hs256 = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.HS256)
                        .type(new JOSEObjectType("at+jwt"))
                        .build(),
                claims);
        hs256.sign(new MACSigner(new byte[32]));
        Map<String, String> cases = Map.of(
                "not-a-token",
                "MALFORMED",
                new PlainJWT(claims).serialize(),
                "UNSUPPORTED",
                hs256.serialize(),
                "UNSUPPORTED",
                signedAccessToken(
                        new JWTClaimsSet.Builder(claims)
                                .issuer("https://evil.example")
                                .build(),
                        randomRsaKey("k")),
                "UNKNOWN_ISSUER",
                signedAccessToken(
                        new JWTClaimsSet.Builder(claims)
                                .expirationTime(Date.from(Instant.now().minusSeconds(600)))
                                .build(),
                        randomRsaKey("k")),
                "UNTRUSTED_KEY");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            HttpResponse<String> answer = post("/api/dvid/balance", c.getKey(), null, Map.of());
            assertThat(answer.statusCode())
                    .as(c.getValue() + " " + answer.body())
                    .isEqualTo(401);
            assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue(INVALID_TOKEN);
            assertThat(answer.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(code(answer)).isEqualTo(c.getValue());
        }
    }

    // ---- 3. unknown kid

    @Test
    void userApiWhenManyRandomKidsInARowThenEach401AndRealTokensStillWork() throws Exception {
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> answer =
                    post("/api/dvid/balance", signedAccessToken(claims(), randomRsaKey("random-" + i)), null, Map.of());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
            assertThat(code(answer)).isEqualTo("UNTRUSTED_KEY");
        }
        String real = client.userToken("user0032");
        assertThat(post("/api/dvid/balance", real, null, Map.of()).statusCode()).isEqualTo(200);
    }

    // ---- 4. the proof is checked under the verifier's own IdP key (ID-Mode with introspection)

    @Test
    void depositWhenIntrospectionProofCheckedUnderTheResolvedIdpKeyThenAccepted() throws Exception {
        String token = client.userToken("user0033");
        HttpResponse<String> deposit = post("/api/id-mode/deposit", token, "{\"amount\":3}", Map.of());
        assertThat(deposit.statusCode()).as(deposit.body()).isEqualTo(200);
        assertThat(SystemClient.JSON.readTree(deposit.body()).get("balance").asLong())
                .isEqualTo(3);
    }

    // ---- 5. strict bodies

    @Test
    void depositWhenFractionStringDuplicateOrUnknownFieldThen400MalformedAndBalanceUnchanged() throws Exception {
        String token = client.userToken("user0034");
        assertThat(post("/api/dvid/deposit", token, "{\"amount\":10}", Map.of()).statusCode())
                .isEqualTo(200);
        for (String body : List.of(
                "{\"amount\":1.9}",
                "{\"amount\":\"5\"}",
                "{\"amount\":1,\"amount\":100}",
                "{\"amount\":1,\"currency\":\"EUR\"}",
                "{\"amount\":true}",
                "{\"amount\":1} {\"amount\":2}")) {
            HttpResponse<String> answer = post("/api/dvid/deposit", token, body, Map.of());
            assertThat(answer.statusCode()).as(body + " " + answer.body()).isEqualTo(400);
            assertThat(code(answer)).as(body).isEqualTo("MALFORMED");
        }
        HttpResponse<String> balance = post("/api/dvid/balance", token, null, Map.of());
        assertThat(SystemClient.JSON.readTree(balance.body()).get("balance").asLong())
                .isEqualTo(10);
    }

    @Test
    void mtlsBodyWhenDuplicateTokenKeyThen400Malformed() {
        Answer answer =
                client.asWorkload("subject-wl", "m-tier", "/dvid/balance", "{\"token\":\"a.b.c\",\"token\":\"d.e.f\"}");
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        assertThat(answer.json().get("code").asString()).isEqualTo("MALFORMED");
    }

    // ---- 6. every error is a problem detail with a code

    @Test
    void errorsWhenErrorPathUnknownPathMethodMediaTypesOrRefusedCallerThenProblemWithCode() throws Exception {
        String token = client.userToken("user0035");
        assertProblem(send("GET", "/error", null, null, Map.of()), 404, "NOT_FOUND");
        assertProblem(send("POST", "/api/nothing/here/at/all", token, null, Map.of()), 404, "NOT_FOUND");
        assertProblem(send("GET", "/api/dvid/balance", token, null, Map.of()), 405, "METHOD_NOT_ALLOWED");
        assertProblem(
                send("POST", "/api/dvid/deposit", token, "amount=1", Map.of("Content-Type", "text/plain")),
                415,
                "UNSUPPORTED_MEDIA_TYPE");
        HttpResponse<String> notAcceptable =
                send("POST", "/api/dvid/balance", token, null, Map.of("Accept", "text/html"));
        assertThat(notAcceptable.statusCode()).isEqualTo(406);
        assertThat(SystemClient.JSON.readTree(notAcceptable.body()).get("code").asString())
                .isEqualTo("NOT_ACCEPTABLE");
        Answer refused = client.asWorkload("intruder", "target-wl", "/dvid/balance", "{\"token\":\"a.b.c\"}");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().get("code").asString()).isEqualTo("CALLER_NOT_ALLOWED");
    }

    @Test
    void requestWhenHeaderOverTomcatsLimitThenProblemNotHtml() throws Exception {
        HttpResponse<String> answer =
                send("POST", "/api/dvid/balance", null, null, Map.of("X-Padding", "a".repeat(64 * 1024)));
        assertThat(answer.statusCode()).isBetween(400, 499);
        assertThat(answer.body()).doesNotContain("<html");
        assertThat(SystemClient.JSON.readTree(answer.body()).get("code").asString())
                .isEqualTo("LIMIT_EXCEEDED");
    }

    // ---- 10. ECDSA malleability of an ID-Mode root

    @Test
    void introspectWhenRootSignatureMalleatedThenRecognisedAsTheSameDocument() throws Exception {
        String token = client.userToken("user0036");
        Answer minted = client.user("id-mode", "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        String root = minted.json().get("token").asString();
        String malleated = malleate(root);
        assertThat(malleated).isNotEqualTo(root);

        Answer original = client.asWorkload(
                "m-tier", "asserting-wl", "/id-mode/introspect", "{\"token\":" + SystemClient.quote(root) + "}");
        Answer rewritten = client.asWorkload(
                "m-tier", "asserting-wl", "/id-mode/introspect", "{\"token\":" + SystemClient.quote(malleated) + "}");

        assertThat(original.status()).as(original.body()).isEqualTo(200);
        assertThat(rewritten.status()).as(rewritten.body()).isEqualTo(200);
        assertThat(rewritten.json().get("msg").asString())
                .isEqualTo(original.json().get("msg").asString());
    }

    // ---- helpers

    private static JWTClaimsSet claims() {
        return new JWTClaimsSet.Builder()
                .issuer(stack.idpUrl().toString())
                .subject("user0040")
                .audience("spiffeidt")
                .issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(600)))
                .build();
    }

    private static HttpResponse<String> post(String path, String token, String json, Map<String, String> headers)
            throws Exception {
        return send("POST", path, token, json, json == null ? headers : withJson(headers));
    }

    private static Map<String, String> withJson(Map<String, String> headers) {
        java.util.Map<String, String> all = new java.util.HashMap<>(headers);
        all.putIfAbsent("Content-Type", "application/json");
        return all;
    }

    private static HttpResponse<String> send(
            String method, String path, String token, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(stack.subjectUrl().toString().replaceAll("/$", "") + path))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String code(HttpResponse<String> answer) {
        JsonNode code = SystemClient.JSON.readTree(answer.body()).get("code");
        return code == null ? null : code.asString();
    }

    private static void assertProblem(HttpResponse<String> answer, int status, String code) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(status);
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(code(answer)).as(answer.body()).isEqualTo(code);
    }

    /** {@code P(0).S(0)} with the DER signature's {@code s} replaced by {@code n - s}. */
    private static String malleate(String root) throws Exception {
        int dot = root.indexOf('.');
        ASN1Sequence der = ASN1Sequence.getInstance(Codec.fromB64url(root.substring(dot + 1)));
        BigInteger r = ASN1Integer.getInstance(der.getObjectAt(0)).getValue();
        BigInteger s = ASN1Integer.getInstance(der.getObjectAt(1)).getValue();
        byte[] encoded = new DERSequence(
                        new ASN1Integer[] {new ASN1Integer(r), new ASN1Integer(P256_ORDER.subtract(s))})
                .getEncoded();
        return root.substring(0, dot + 1) + Codec.b64url(encoded);
    }
}
