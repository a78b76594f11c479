package io.spiffeidt.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The IdP with its default configuration, on a random port, driven over HTTP. */
@SpringBootTest(
        classes = IdpApplication.class,
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "spring.config.name=" + IdpApplication.CONFIG_NAME)
class IdpServerIT {

    private static final String REDIRECT_URI = "http://127.0.0.1:8080/login/oauth2/code/idp";

    @LocalServerPort
    private int port;

    private String issuer;

    private IdpTestClient client;

    @BeforeEach
    void setUp() {
        issuer = "http://127.0.0.1:" + port;
        client = new IdpTestClient(URI.create(issuer));
    }

    @Test
    void verifyWhenDiscoveryRequestedThenIssuerIsLoopbackWithTheActualPort() throws Exception {
        Map<String, Object> discovery = client.discovery();

        assertThat(discovery)
                .containsEntry("issuer", issuer)
                .containsEntry("jwks_uri", issuer + "/oauth2/jwks")
                .containsEntry("authorization_endpoint", issuer + "/oauth2/authorize")
                .containsEntry("token_endpoint", issuer + "/oauth2/token")
                .containsEntry("userinfo_endpoint", issuer + "/userinfo");
        assertThat(strings(discovery, "response_types_supported")).contains("code");
        assertThat(strings(discovery, "grant_types_supported")).contains("authorization_code");
        assertThat(strings(discovery, "code_challenge_methods_supported")).contains("S256");
        assertThat(strings(discovery, "id_token_signing_alg_values_supported")).contains("RS256");
        assertThat(strings(discovery, "scopes_supported")).contains("openid");
    }

    @Test
    void verifyWhenOauthMetadataRequestedThenSameIssuerAndJwks() throws Exception {
        Map<String, Object> metadata =
                IdpTestClient.json(client.get("/.well-known/oauth-authorization-server", "application/json"));

        assertThat(metadata).containsEntry("issuer", issuer).containsEntry("jwks_uri", issuer + "/oauth2/jwks");
    }

    @Test
    void verifyWhenReachedAsLocalhostThenIssuerIsStillLoopback() throws Exception {
        IdpTestClient viaLocalhost = new IdpTestClient(URI.create("http://localhost:" + port));

        assertThat(viaLocalhost.discovery()).containsEntry("issuer", issuer);
        HttpResponse<String> token = viaLocalhost.devToken("user0001", "password");
        String accessToken = (String) IdpTestClient.json(token).get("access_token");
        assertThat(SignedJWT.parse(accessToken).getJWTClaimsSet().getIssuer()).isEqualTo(issuer);
    }

    @Test
    void verifyWhenJwksRequestedThenOnePublicRs256SigningKey() throws Exception {
        HttpResponse<String> response = client.get("/oauth2/jwks", "application/json");

        assertThat(response.statusCode()).isEqualTo(200);
        JWKSet jwks = JWKSet.parse(response.body());
        assertThat(jwks.getKeys()).hasSize(1);
        JWK key = jwks.getKeys().get(0);
        assertThat(key).isInstanceOf(RSAKey.class);
        assertThat(key.isPrivate()).isFalse();
        assertThat(key.getKeyUse()).isEqualTo(KeyUse.SIGNATURE);
        assertThat(key.getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(key.getKeyID()).isEqualTo(key.computeThumbprint().toString());
        assertThat(key.toRSAKey().getModulus().decodeToBigInteger().bitLength()).isEqualTo(2048);
        assertThat(response.body()).doesNotContain("\"d\"", "\"p\"", "\"q\"");
    }

    @Test
    void verifyWhenDevTokenWithGoodCredentialsThenAccessTokenVerifiesAgainstJwks() throws Exception {
        HttpResponse<String> response = client.devToken("user0042", "password");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        Map<String, Object> body = IdpTestClient.json(response);
        assertThat(body)
                .containsEntry("token_type", "Bearer")
                .containsEntry("expires_in", 3600L)
                .containsEntry("scope", "openid profile");

        String accessToken = (String) body.get("access_token");
        JWTClaimsSet claims = client.verify(accessToken);
        assertAccessTokenClaims(accessToken, claims, "user0042");
    }

    @Test
    void verifyWhenDevTokenThenIdTokenVerifiesAndNamesTheUserAndClient() throws Exception {
        Map<String, Object> body = IdpTestClient.json(client.devToken("user0100", "password"));

        JWTClaimsSet idToken = client.verify((String) body.get("id_token"));

        assertThat(idToken.getSubject()).isEqualTo("user0100");
        assertThat(idToken.getAudience()).containsExactly("subject-wl");
        assertThat(idToken.getStringClaim("azp")).isEqualTo("subject-wl");
        assertThat(SignedJWT.parse((String) body.get("id_token")).getHeader().getType())
                .isNotEqualTo(new com.nimbusds.jose.JOSEObjectType("at+jwt"));
    }

    @ParameterizedTest
    @CsvSource({
        "user0001, wrong",
        "user0001, ''",
        "user0101, password",
        "user0000, password",
        "USER0001, password",
        "user01, password",
        "nobody, password"
    })
    void verifyWhenDevTokenWithBadCredentialsThenUnauthorizedProblem(String username, String password)
            throws Exception {
        HttpResponse<String> response = client.devToken(username, password);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
        Map<String, Object> problem = IdpTestClient.json(response);
        assertThat(problem)
                .containsEntry("status", 401L)
                .containsEntry("type", "urn:spiffeidt:idp:invalid-credentials")
                .containsEntry("detail", "unknown user or wrong password")
                .doesNotContainKey("access_token");
    }

    @Test
    void verifyWhenDevTokenWithoutPasswordThenBadRequestProblem() throws Exception {
        HttpResponse<String> response = client.postForm("/dev/token", Map.of("username", "user0001"));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(IdpTestClient.json(response)).containsEntry("status", 400L);
    }

    @Test
    void verifyWhenDevTokenWithGetThenMethodNotAllowedProblem() throws Exception {
        HttpResponse<String> response = client.get("/dev/token?username=user0001&password=password", "*/*");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).doesNotContain("access_token");
    }

    @Test
    void verifyWhenDevTokenWithJsonBodyThenUnsupportedMediaTypeProblem() throws Exception {
        HttpResponse<String> response =
                client.postJson("/dev/token", "{\"username\":\"user0001\",\"password\":\"password\"}");

        assertThat(response.statusCode()).isEqualTo(415);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    }

    @Test
    void verifyWhenAuthorizationCodeFlowWithPkceThenTokensForTheUser() throws Exception {
        IdpTestClient.CodeFlowResult result =
                client.authorizationCodeFlow("subject-wl", REDIRECT_URI, "openid profile", "user0007", "password");

        Map<String, Object> tokens = result.tokenResponse();
        assertThat(tokens).containsEntry("token_type", "Bearer").doesNotContainKey("refresh_token");
        String accessToken = (String) tokens.get("access_token");
        assertAccessTokenClaims(accessToken, client.verify(accessToken), "user0007");
        JWTClaimsSet idToken = client.verify((String) tokens.get("id_token"));
        assertThat(idToken.getSubject()).isEqualTo("user0007");
        assertThat(idToken.getAudience()).containsExactly("subject-wl");
        assertThat(idToken.getStringClaim("nonce")).isEqualTo(result.nonce());
    }

    @Test
    void verifyWhenAuthorizationCodeFlowTokenThenUserInfoAnswersForTheUser() throws Exception {
        Map<String, Object> tokens = client.authorizationCodeFlow(
                        "subject-wl", REDIRECT_URI, "openid profile", "user0008", "password")
                .tokenResponse();

        HttpResponse<String> userInfo = client.getWithBearer("/userinfo", (String) tokens.get("access_token"));

        assertThat(userInfo.statusCode()).isEqualTo(200);
        assertThat(IdpTestClient.json(userInfo)).containsEntry("sub", "user0008");
    }

    @Test
    void verifyWhenAuthorizeWithoutPkceThenInvalidRequestAtTheRedirectUri() throws Exception {
        String query = "response_type=code&client_id=subject-wl&scope=openid&state=s1&redirect_uri="
                + java.net.URLEncoder.encode(REDIRECT_URI, java.nio.charset.StandardCharsets.UTF_8);

        HttpResponse<String> response = client.get("/oauth2/authorize?" + query, "text/html");

        assertThat(response.statusCode()).isEqualTo(302);
        URI location = URI.create(IdpTestClient.location(response));
        assertThat(location.toString()).startsWith(REDIRECT_URI + "?");
        assertThat(IdpTestClient.query(location))
                .containsEntry("error", "invalid_request")
                .containsEntry("state", "s1")
                .doesNotContainKey("code");
    }

    @Test
    void verifyWhenAuthorizeWithUnregisteredRedirectUriThenNoRedirect() throws Exception {
        String query = "response_type=code&client_id=subject-wl&scope=openid&state=s2"
                + "&code_challenge=" + IdpTestClient.random() + "&code_challenge_method=S256"
                + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A6666%2Fsteal";

        HttpResponse<String> response = client.get("/oauth2/authorize?" + query, "text/html");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(IdpTestClient.location(response)).isEmpty();
    }

    private void assertAccessTokenClaims(String accessToken, JWTClaimsSet claims, String username) throws Exception {
        SignedJWT jwt = SignedJWT.parse(accessToken);
        String jwksKid = JWKSet.parse(
                        client.get("/oauth2/jwks", "application/json").body())
                .getKeys()
                .get(0)
                .getKeyID();
        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(jwt.getHeader().getKeyID()).isEqualTo(jwksKid);
        // RFC 9068 section 2.1: a JWT access token is typed, so no ID token can pass for one
        assertThat(jwt.getHeader().getType()).isEqualTo(new com.nimbusds.jose.JOSEObjectType("at+jwt"));
        assertThat(claims.getIssuer()).isEqualTo(issuer);
        assertThat(claims.getSubject()).isEqualTo(username);
        assertThat(claims.getAudience()).containsExactly("spiffeidt");
        assertThat(claims.getStringClaim("scope")).isEqualTo("openid profile");
        assertThat(claims.getStringClaim("client_id")).isEqualTo("subject-wl");
        assertThat(claims.getIssueTime()).isNotNull();
        assertThat(Duration.between(
                        claims.getIssueTime().toInstant(),
                        claims.getExpirationTime().toInstant()))
                .isEqualTo(Duration.ofHours(1));
    }

    @SuppressWarnings("unchecked")
    private static java.util.List<String> strings(Map<String, Object> json, String name) {
        return (java.util.List<String>) json.get(name);
    }
}
