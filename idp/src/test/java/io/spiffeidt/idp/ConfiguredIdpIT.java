package io.spiffeidt.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The IdP with every option set: a configured issuer, a PEM signing key, an encoded password,
 * three users, another audience and TTL, and its own client.
 */
@SpringBootTest(
        classes = IdpApplication.class,
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.config.name=" + IdpApplication.CONFIG_NAME,
            "spiffeidt.idp.issuer=http://idp.test:9000",
            "spiffeidt.idp.users=3",
            "spiffeidt.idp.audience=bank",
            "spiffeidt.idp.access-token-ttl=120s",
            "spiffeidt.idp.dev-token-client=web",
            "spiffeidt.idp.clients.web.redirect-uris=" + ConfiguredIdpIT.REDIRECT_URI,
            "spiffeidt.idp.clients.web.scopes=openid"
        })
class ConfiguredIdpIT {

    static final String REDIRECT_URI = "http://127.0.0.1:7777/cb";

    private static final String ISSUER = "http://idp.test:9000";

    private static KeyPair signingKey;

    @LocalServerPort
    private int port;

    private IdpTestClient client;

    @DynamicPropertySource
    static void keyAndPassword(DynamicPropertyRegistry registry) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(3072);
        signingKey = generator.generateKeyPair();
        Path pem = Files.createTempFile("idp-key", ".pem");
        pem.toFile().deleteOnExit();
        Files.writeString(
                pem,
                "-----BEGIN PRIVATE KEY-----\n"
                        + Base64.getMimeEncoder()
                                .encodeToString(signingKey.getPrivate().getEncoded())
                        + "\n-----END PRIVATE KEY-----\n",
                StandardCharsets.US_ASCII);
        String encoded = "{bcrypt}" + new BCryptPasswordEncoder(4).encode("s3cret");
        registry.add("spiffeidt.idp.signing-key", pem::toString);
        registry.add("spiffeidt.idp.password", () -> encoded);
    }

    @BeforeEach
    void setUp() {
        client = new IdpTestClient(URI.create("http://127.0.0.1:" + port));
    }

    @Test
    void verifyWhenIssuerConfiguredThenDiscoveryUsesIt() throws Exception {
        Map<String, Object> discovery = client.discovery();

        assertThat(discovery)
                .containsEntry("issuer", ISSUER)
                .containsEntry("jwks_uri", ISSUER + "/oauth2/jwks")
                .containsEntry("token_endpoint", ISSUER + "/oauth2/token");
    }

    @Test
    void verifyWhenSigningKeyFromPemThenJwksPublishesItWithThumbprintKid() throws Exception {
        JWKSet jwks =
                JWKSet.parse(client.get("/oauth2/jwks", "application/json").body());

        assertThat(jwks.getKeys()).hasSize(1);
        JWK key = jwks.getKeys().get(0);
        RSAKey expected = new RSAKey.Builder((RSAPublicKey) signingKey.getPublic()).build();
        assertThat(key.toRSAKey().toRSAPublicKey()).isEqualTo(signingKey.getPublic());
        assertThat(key.getKeyID()).isEqualTo(expected.computeThumbprint().toString());
    }

    @Test
    void verifyWhenDevTokenThenConfiguredIssuerAudienceTtlScopeAndKey() throws Exception {
        HttpResponse<String> response = client.devToken("user0003", "s3cret");

        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> body = IdpTestClient.json(response);
        assertThat(body).containsEntry("expires_in", 120L).containsEntry("scope", "openid");
        SignedJWT jwt = SignedJWT.parse((String) body.get("access_token"));
        assertThat(jwt.verify(new RSASSAVerifier((RSAPublicKey) signingKey.getPublic())))
                .isTrue();
        JWTClaimsSet claims = client.verifyWithLocalJwks(jwt.serialize());
        assertThat(claims.getIssuer()).isEqualTo(ISSUER);
        assertThat(claims.getSubject()).isEqualTo("user0003");
        assertThat(claims.getAudience()).containsExactly("bank");
        assertThat(claims.getStringClaim("scope")).isEqualTo("openid");
        assertThat(claims.getStringClaim("client_id")).isEqualTo("web");
        assertThat(Duration.between(
                        claims.getIssueTime().toInstant(),
                        claims.getExpirationTime().toInstant()))
                .isEqualTo(Duration.ofSeconds(120));
        JWTClaimsSet idToken = client.verifyWithLocalJwks((String) body.get("id_token"));
        assertThat(idToken.getIssuer()).isEqualTo(ISSUER);
        assertThat(idToken.getAudience()).containsExactly("web");
    }

    @Test
    void verifyWhenDefaultPasswordOrUserBeyondCountThenUnauthorized() throws Exception {
        assertThat(client.devToken("user0001", "password").statusCode()).isEqualTo(401);
        assertThat(client.devToken("user0004", "s3cret").statusCode()).isEqualTo(401);
        assertThat(client.devToken("user0001", "s3cret").statusCode()).isEqualTo(200);
    }

    @Test
    void verifyWhenAuthorizationCodeFlowForConfiguredClientThenTokensCarryTheConfiguredIssuer() throws Exception {
        Map<String, Object> tokens = client.authorizationCodeFlow("web", REDIRECT_URI, "openid", "user0002", "s3cret")
                .tokenResponse();

        JWTClaimsSet access = client.verifyWithLocalJwks((String) tokens.get("access_token"));
        assertThat(access.getIssuer()).isEqualTo(ISSUER);
        assertThat(access.getSubject()).isEqualTo("user0002");
        assertThat(access.getAudience()).containsExactly("bank");
        JWTClaimsSet idToken = client.verifyWithLocalJwks((String) tokens.get("id_token"));
        assertThat(idToken.getIssuer()).isEqualTo(ISSUER);
        assertThat(idToken.getSubject()).isEqualTo("user0002");
    }

    @Test
    void verifyWhenDefaultClientNotConfiguredThenItIsUnknown() throws Exception {
        String query = "response_type=code&client_id=subject-wl&scope=openid&state=s"
                + "&code_challenge=" + IdpTestClient.random() + "&code_challenge_method=S256"
                + "&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Flogin%2Foauth2%2Fcode%2Fidp";

        HttpResponse<String> response = client.get("/oauth2/authorize?" + query, "text/html");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(IdpTestClient.location(response)).isEmpty();
    }
}
