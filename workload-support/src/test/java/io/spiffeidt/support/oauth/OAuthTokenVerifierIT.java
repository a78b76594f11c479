package io.spiffeidt.support.oauth;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.memo.MemoSettings;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.memo.MemoMetrics;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.problem.ProblemDetailsAdvice;
import io.spiffeidt.testkit.Await;
import io.spiffeidt.testkit.MutableClock;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class OAuthTokenVerifierIT {

    private static RSAKey idpKey;
    private static RSAKey otherKey;

    private final Instant now = Instant.ofEpochSecond(Instant.now().getEpochSecond());
    private final MutableClock clock = MutableClock.at(now);
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<OAuthTokenVerifier> verifiers = new ArrayList<>();
    private HttpServer idp;
    private String issuer;

    @BeforeAll
    static void keys() throws Exception {
        idpKey = new RSAKeyGenerator(2048).keyID("idp-1").generate();
        otherKey = new RSAKeyGenerator(2048).keyID("idp-1").generate();
    }

    @BeforeEach
    void startIdp() throws Exception {
        idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuer = "http://127.0.0.1:" + idp.getAddress().getPort();
        serve(
                "/.well-known/openid-configuration",
                "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/jwks\"}");
        serve("/jwks", new JWKSet(idpKey.toPublicJWK()).toString());
        idp.start();
    }

    private void serve(String path, String json) {
        idp.createContext(path, exchange -> {
            requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }

    @AfterEach
    void stop() {
        verifiers.forEach(OAuthTokenVerifier::close);
        idp.stop(0);
    }

    private int requestsTo(String path) {
        AtomicInteger count = requests.get(path);
        return count == null ? 0 : count.get();
    }

    private OAuthTokenVerifier verifier(JwksCacheMode mode, OAuthProperties.Issuer... issuers) {
        return verifier(mode, Duration.ofMinutes(5), Duration.ofSeconds(30), issuers);
    }

    private OAuthTokenVerifier verifier(
            JwksCacheMode mode, Duration cacheTtl, Duration refreshAhead, OAuthProperties.Issuer... issuers) {
        return verifier(mode, cacheTtl, refreshAhead, 0, Duration.ZERO, issuers);
    }

    /** A verifier that remembers verified tokens (the memo {@code spiffeidt.memo.uses.oauth-token}). */
    private OAuthTokenVerifier remembering(JwksCacheMode mode, Duration cacheTtl, Duration memoTtl) {
        return verifier(mode, cacheTtl, Duration.ofSeconds(5), 4096, memoTtl);
    }

    private OAuthTokenVerifier verifier(
            JwksCacheMode mode,
            Duration cacheTtl,
            Duration refreshAhead,
            int memoEntries,
            Duration memoTtl,
            OAuthProperties.Issuer... issuers) {
        OAuthProperties settings = new OAuthProperties(
                issuers.length == 0
                        ? List.of(new OAuthProperties.Issuer(issuer, null, "spiffeidt", true))
                        : List.of(issuers),
                mode,
                cacheTtl,
                refreshAhead,
                Duration.ofSeconds(30),
                Duration.ofSeconds(2),
                Duration.ofSeconds(5));
        OAuthTokenVerifier verifier = new OAuthTokenVerifier(
                settings,
                TimeRules.defaults(clock),
                new SignatureProvider(CryptoProviderChoice.AUTO),
                new OperationMetrics(registry),
                Memos.of(
                        name -> memoEntries == 0
                                ? MemoSettings.OFF
                                : MemoSettings.DEFAULTS.withSize(memoEntries).withTtl(memoTtl),
                        clock,
                        new MemoMetrics(registry)));
        verifiers.add(verifier);
        return verifier;
    }

    private JWTClaimsSet.Builder claims() {
        return new JWTClaimsSet.Builder()
                .issuer(issuer)
                .subject("user0001")
                .audience("spiffeidt")
                .issueTime(Date.from(now.minusSeconds(10)))
                .expirationTime(Date.from(now.plusSeconds(300)));
    }

    /** An RFC 9068 access token: {@code typ} at+jwt. */
    private static String sign(JWTClaimsSet claims, RSAKey key) throws Exception {
        return sign(claims, key, OAuthTokenVerifier.AT_JWT);
    }

    private static String sign(JWTClaimsSet claims, RSAKey key, JOSEObjectType type) throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256)
                        .keyID(key.getKeyID())
                        .type(type)
                        .build(),
                claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    @Test
    void verifyWhenValidTokenThenVerifiedWithSigningInputSignatureAndIdpKey() throws Exception {
        String token = sign(claims().build(), idpKey);

        VerifiedOAuthToken verified = verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.DVID, token);

        String[] parts = token.split("\\.");
        assertThat(verified.issuer()).isEqualTo(issuer);
        assertThat(verified.subject()).isEqualTo("user0001");
        assertThat(verified.expiresAt()).isEqualTo(now.plusSeconds(300));
        assertThat(verified.signingInput()).isEqualTo(parts[0] + "." + parts[1]);
        assertThat(verified.signature()).isEqualTo(Base64.getUrlDecoder().decode(parts[2]));
        assertThat(verified.kid()).isEqualTo("idp-1");
        assertThat(verified.idpKey()).isEqualTo(idpKey.toRSAPublicKey());
        assertThat(RSAKey.parse(verified.idpKeyJwk()).isPrivate()).isFalse();
        assertThat(verified.idpKeyJwk()).doesNotContain("\"d\"");
        assertThat(verified.toString()).doesNotContain(parts[1]);
        assertThat(timerCount("mode", "dvid", "operation", "oauth_verify", "outcome", "success"))
                .isEqualTo(1);
        assertThat(timerCount("mode", "dvid", "operation", "jwks_fetch", "outcome", "success"))
                .isEqualTo(1);
    }

    @Test
    void verifyWhenSignatureCopiedThenCallerCannotChangeIt() throws Exception {
        VerifiedOAuthToken verified =
                verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.ID_MODE, sign(claims().build(), idpKey));

        byte[] copy = verified.signature();
        copy[0] ^= 1;

        assertThat(verified.signature()).isNotEqualTo(copy);
    }

    @Test
    void verifyWhenIssuerNotAllowedThenUnknownIssuerWithoutNetworkCall() throws Exception {
        String token = sign(claims().issuer("https://evil.example").build(), idpKey);
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.NONE);

        assertThatAssertion(() -> verifier.verify(Mode.DVID, token)).hasCode(ErrorCode.UNKNOWN_ISSUER);
        assertThat(requests).isEmpty();
        assertThat(timerCount("operation", "oauth_verify", "outcome", "UNKNOWN_ISSUER"))
                .isEqualTo(1);
    }

    @Test
    void verifyWhenSignedByAnotherKeyThenBadSignature() throws Exception {
        String token = sign(claims().build(), otherKey);

        assertThatAssertion(() -> verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.DVID, token))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenPayloadTamperedThenBadSignature() throws Exception {
        String[] parts = sign(claims().build(), idpKey).split("\\.");
        String forged = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("user0001", "user0002")
                        .getBytes(StandardCharsets.UTF_8));
        String token = parts[0] + "." + forged + "." + parts[2];

        assertThatAssertion(() -> verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.DVID, token))
                .hasCode(ErrorCode.BAD_SIGNATURE);
    }

    @Test
    void verifyWhenKidUnknownThenUntrustedKeyAsAnInvalidToken() throws Exception {
        RSAKey unknown = new RSAKeyGenerator(2048).keyID("idp-2").generate();

        assertThatAssertion(() -> verifier(JwksCacheMode.NONE).verify(Mode.DVID, sign(claims().build(), unknown)))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    @Test
    void verifyWhenManyRandomKidsInARowThenEachUntrustedKeyAndRefetchesStayRateLimited() throws Exception {
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.REFRESH_AHEAD);
        verifier.verify(Mode.DVID, sign(claims().build(), idpKey));

        for (int i = 0; i < 20; i++) {
            RSAKey random = new RSAKeyGenerator(2048).keyID("random-" + i).generate();
            String token = sign(claims().build(), random);
            assertThatThrownBy(() -> verifier.verify(Mode.DVID, token))
                    .isInstanceOfSatisfying(InvalidAccessTokenException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.UNTRUSTED_KEY);
                        assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(401);
                    });
        }
        // the first fetch plus at most the rate limiter's allowance in one interval, not one per token
        assertThat(requestsTo("/jwks")).isBetween(1, 3);
    }

    @Test
    void verifyWhenIdpRotatesItsKeyThenTheNewKidIsFetchedAndAccepted() throws Exception {
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.REFRESH_AHEAD);
        verifier.verify(Mode.DVID, sign(claims().build(), idpKey));
        RSAKey next = new RSAKeyGenerator(2048).keyID("idp-next").generate();
        rotateTo(next);

        assertThat(verifier.verify(Mode.DVID, sign(claims().build(), next)).kid())
                .isEqualTo("idp-next");
        assertThat(requestsTo("/jwks")).isEqualTo(2);
    }

    @Test
    void verifyWhenIdpRotatesAfterAFloodOfRandomKidsThenStillPickedUpWithinTheCacheTtl() throws Exception {
        OAuthTokenVerifier verifier =
                verifier(JwksCacheMode.REFRESH_AHEAD, Duration.ofSeconds(3), Duration.ofSeconds(1));
        verifier.verify(Mode.DVID, sign(claims().build(), idpKey));
        for (int i = 0; i < 5; i++) {
            String token = sign(
                    claims().build(),
                    new RSAKeyGenerator(2048).keyID("flood-" + i).generate());
            assertThatThrownBy(() -> verifier.verify(Mode.DVID, token)).isInstanceOf(InvalidAccessTokenException.class);
        }
        RSAKey next = new RSAKeyGenerator(2048).keyID("idp-next").generate();
        rotateTo(next);
        String rotated = sign(claims().build(), next);

        // the refetch allowance is spent: the cache's own refresh (TTL 3 s) must bring the new key
        String kid = Await.until(
                () -> {
                    try {
                        return verifier.verify(Mode.DVID, rotated).kid();
                    } catch (InvalidAccessTokenException e) {
                        assertThat(e.code()).isEqualTo(ErrorCode.UNTRUSTED_KEY);
                        return null;
                    }
                },
                Objects::nonNull,
                Duration.ofSeconds(20),
                Duration.ofMillis(250));
        assertThat(kid).isEqualTo("idp-next");
    }

    @Test
    void verifyWhenOidcIdTokenOfTheSameIssuerThenRefused() throws Exception {
        // what an IdP gives any client of the user: no at+jwt type, the client as audience
        String idToken =
                sign(claims().audience("subject-wl").claim("azp", "subject-wl").build(), idpKey, null);
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.REFRESH_AHEAD);

        assertThatAssertion(() -> verifier.verify(Mode.DVID, idToken))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.UNSUPPORTED);
        // and with a JWT type, or at+jwt but the client's audience, still refused
        assertThatAssertion(() -> verifier.verify(
                        Mode.DVID, sign(claims().audience("subject-wl").build(), idpKey, JOSEObjectType.JWT)))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.UNSUPPORTED);
        assertThatAssertion(() -> verifier.verify(
                        Mode.DVID, sign(claims().audience("subject-wl").build(), idpKey)))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenIssuerIsNotRfc9068ThenUntypedTokensWithTheAudienceAccepted() throws Exception {
        OAuthTokenVerifier verifier =
                verifier(JwksCacheMode.REFRESH_AHEAD, new OAuthProperties.Issuer(issuer, null, "spiffeidt", false));

        assertThat(verifier.verify(Mode.DVID, sign(claims().build(), idpKey, null))
                        .subject())
                .isEqualTo("user0001");
    }

    /** An access token as Keycloak issues it without RFC 9068: typ JWT, a typ claim, azp, two audiences. */
    private JWTClaimsSet.Builder keycloakClaims() {
        return claims().audience(List.of("spiffeidt", "account"))
                .claim("typ", "Bearer")
                .claim("azp", "spiffeidt-page")
                .claim("preferred_username", "user0001");
    }

    private OAuthTokenVerifier notRfc9068() {
        return verifier(JwksCacheMode.REFRESH_AHEAD, new OAuthProperties.Issuer(issuer, null, "spiffeidt", false));
    }

    @Test
    void verifyWhenKeycloakAccessTokenOfANotRfc9068IssuerThenAccepted() throws Exception {
        VerifiedOAuthToken verified =
                notRfc9068().verify(Mode.DVID, sign(keycloakClaims().build(), idpKey, JOSEObjectType.JWT));

        assertThat(verified.subject()).isEqualTo("user0001");
        assertThat(verified.kid()).isEqualTo("idp-1");
    }

    @Test
    void verifyWhenKeycloakAccessTokenWithoutTheAudienceMapperThenWrongAudience() throws Exception {
        // without an audience mapper Keycloak's access tokens name only the account console
        String token = sign(keycloakClaims().audience("account").build(), idpKey, JOSEObjectType.JWT);

        assertThatAssertion(() -> notRfc9068().verify(Mode.DVID, token))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.WRONG_AUDIENCE);
    }

    @Test
    void verifyWhenKeycloakIdTokenCarriesTheAudienceThenStillRefusedAsNoAccessToken() throws Exception {
        // an audience mapper also put into ID tokens: the audience matches, the token's type does not
        String idToken =
                sign(keycloakClaims().claim("typ", "ID").audience("spiffeidt").build(), idpKey, JOSEObjectType.JWT);
        OAuthTokenVerifier verifier = notRfc9068();

        assertThatAssertion(() -> verifier.verify(Mode.DVID, idToken))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.UNSUPPORTED);
        // another provider's ID token: at_hash or c_hash, which only ID tokens carry
        for (String claim : List.of("at_hash", "c_hash")) {
            String other = sign(claims().claim(claim, "aGFzaA").build(), idpKey, JOSEObjectType.JWT);
            assertThatAssertion(() -> verifier.verify(Mode.DVID, other))
                    .as(claim)
                    .isInstanceOf(InvalidAccessTokenException.class)
                    .hasCode(ErrorCode.UNSUPPORTED);
        }
        // a Keycloak refresh token (were it RS256) is no access token either
        String refresh = sign(keycloakClaims().claim("typ", "Refresh").build(), idpKey, JOSEObjectType.JWT);
        assertThatAssertion(() -> verifier.verify(Mode.DVID, refresh))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenSeveralActiveKeysAndAnEncryptionKeyThenEachTokenVerifiedByItsKid() throws Exception {
        // Keycloak publishes every enabled key: the active and passive signing keys, and RSA-OAEP ones
        RSAKey second = new RSAKeyGenerator(2048).keyID("idp-2").generate();
        RSAKey encryption = new RSAKeyGenerator(2048)
                .keyID("idp-enc")
                .keyUse(com.nimbusds.jose.jwk.KeyUse.ENCRYPTION)
                .algorithm(com.nimbusds.jose.JWEAlgorithm.RSA_OAEP_256)
                .generate();
        idp.removeContext("/jwks");
        serve(
                "/jwks",
                new JWKSet(List.of(encryption.toPublicJWK(), idpKey.toPublicJWK(), second.toPublicJWK())).toString());
        OAuthTokenVerifier verifier = notRfc9068();

        assertThat(verifier.verify(Mode.DVID, sign(keycloakClaims().build(), second, JOSEObjectType.JWT))
                        .idpKey())
                .isEqualTo(second.toRSAPublicKey());
        assertThat(verifier.verify(Mode.DVID, sign(keycloakClaims().build(), idpKey, JOSEObjectType.JWT))
                        .idpKey())
                .isEqualTo(idpKey.toRSAPublicKey());
        // the key a proof names by kid, never the encryption key
        assertThat(verifier.idpKey(issuer, "idp-2")).isEqualTo(second.toRSAPublicKey());
        assertThatAssertion(() -> verifier.idpKey(issuer, "idp-enc")).hasCode(ErrorCode.UNTRUSTED_KEY);
        // signed by the encryption key: no signing key of that kid
        assertThatAssertion(() ->
                        verifier.verify(Mode.DVID, sign(keycloakClaims().build(), encryption, JOSEObjectType.JWT)))
                .isInstanceOf(InvalidAccessTokenException.class)
                .hasCode(ErrorCode.UNTRUSTED_KEY);
    }

    private void rotateTo(RSAKey next) {
        idp.removeContext("/jwks");
        serve("/jwks", new JWKSet(next.toPublicJWK()).toString());
    }

    @Test
    void verifyWhenExpiredBeyondSkewThenExpired() throws Exception {
        String token =
                sign(claims().expirationTime(Date.from(now.minusSeconds(31))).build(), idpKey);

        assertThatAssertion(() -> verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.DVID, token))
                .hasCode(ErrorCode.EXPIRED);
    }

    @Test
    void verifyWhenExpiredWithinSkewThenAccepted() throws Exception {
        String token =
                sign(claims().expirationTime(Date.from(now.minusSeconds(20))).build(), idpKey);

        assertThat(verifier(JwksCacheMode.REFRESH_AHEAD)
                        .verify(Mode.DVID, token)
                        .subject())
                .isEqualTo("user0001");
    }

    @Test
    void verifyWhenNotBeforeInFutureThenNotYetValid() throws Exception {
        String token =
                sign(claims().notBeforeTime(Date.from(now.plusSeconds(120))).build(), idpKey);

        assertThatAssertion(() -> verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.DVID, token))
                .hasCode(ErrorCode.NOT_YET_VALID);
    }

    @Test
    void verifyWhenNoExpThenMalformed() throws Exception {
        String token = sign(
                new JWTClaimsSet.Builder()
                        .issuer(issuer)
                        .subject("user0001")
                        .audience("spiffeidt")
                        .build(),
                idpKey);

        assertThatAssertion(() -> verifier(JwksCacheMode.REFRESH_AHEAD).verify(Mode.DVID, token))
                .hasCode(ErrorCode.MALFORMED);
    }

    @Test
    void verifyWhenAlgNoneThenUnsupported() {
        String token = new PlainJWT(claims().build()).serialize();

        assertThatAssertion(() -> verifier(JwksCacheMode.NONE).verify(Mode.DVID, token))
                .hasCode(ErrorCode.UNSUPPORTED);
        assertThat(requests).isEmpty();
    }

    @Test
    void verifyWhenAlgNoneWithFakeSignatureThenUnsupported() {
        String[] parts = new PlainJWT(claims().build()).serialize().split("\\.", -1);
        String token = parts[0] + "." + parts[1] + ".c2ln";

        assertThatAssertion(() -> verifier(JwksCacheMode.NONE).verify(Mode.DVID, token))
                .hasCode(ErrorCode.UNSUPPORTED);
    }

    @Test
    void verifyWhenHs256ThenUnsupported() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims().build());
        jwt.sign(new MACSigner(new byte[32]));

        assertThatAssertion(() -> verifier(JwksCacheMode.NONE).verify(Mode.DVID, jwt.serialize()))
                .hasCode(ErrorCode.UNSUPPORTED);
        assertThat(requests).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "garbage", "a.b", "a.b.c.d", "!!.??.##", "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln"})
    void verifyWhenGarbageThenMalformed(String token) {
        assertThatAssertion(() -> verifier(JwksCacheMode.NONE).verify(Mode.DVID, token))
                .hasCode(ErrorCode.MALFORMED);
        assertThat(requests).isEmpty();
    }

    @Test
    void verifyWhenTokenOversizeThenLimitExceeded() {
        String token = "a".repeat(OAuthTokenVerifier.MAX_TOKEN_LENGTH + 1);

        assertThatAssertion(() -> verifier(JwksCacheMode.NONE).verify(Mode.DVID, token))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
    }

    @Test
    void verifyWhenCacheNoneThenJwksFetchedOnEveryVerification() throws Exception {
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.NONE);
        String token = sign(claims().build(), idpKey);

        for (int i = 0; i < 3; i++) {
            verifier.verify(Mode.DVID, token);
        }

        assertThat(requestsTo("/jwks")).isEqualTo(3);
        assertThat(requestsTo("/.well-known/openid-configuration")).isEqualTo(1);
    }

    @Test
    void verifyWhenCacheRefreshAheadThenJwksFetchedOnce() throws Exception {
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.REFRESH_AHEAD);
        String token = sign(claims().build(), idpKey);

        for (int i = 0; i < 3; i++) {
            verifier.verify(Mode.DVID, token);
        }

        assertThat(requestsTo("/jwks")).isEqualTo(1);
        assertThat(requestsTo("/.well-known/openid-configuration")).isEqualTo(1);
    }

    @Test
    void verifyWhenJwksUriConfiguredThenNoDiscovery() throws Exception {
        OAuthTokenVerifier verifier = verifier(
                JwksCacheMode.NONE,
                new OAuthProperties.Issuer(issuer, URI.create(issuer + "/jwks"), "spiffeidt", true));

        verifier.verify(Mode.LSVID, sign(claims().build(), idpKey));

        assertThat(requestsTo("/.well-known/openid-configuration")).isZero();
        assertThat(requestsTo("/jwks")).isEqualTo(1);
    }

    @Test
    void verifyWhenAudienceRequiredThenCheckedAgainstAud() throws Exception {
        OAuthTokenVerifier verifier = verifier(JwksCacheMode.REFRESH_AHEAD);

        assertThat(verifier.verify(Mode.DVID, sign(claims().build(), idpKey)).subject())
                .isEqualTo("user0001");
        String other = sign(claims().audience("another-api").build(), idpKey);
        assertThatAssertion(() -> verifier.verify(Mode.DVID, other)).hasCode(ErrorCode.WRONG_AUDIENCE);
    }

    @ParameterizedTest
    @EnumSource(JwksCacheMode.class)
    void verifyWhenIdpDownThenUpstreamUnavailable(JwksCacheMode mode) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        issuer = "http://127.0.0.1:" + closedPort;
        String token = sign(claims().build(), idpKey);
        OAuthTokenVerifier verifier = verifier(mode);

        assertThatThrownBy(() -> verifier.verify(Mode.DVID, token))
                .isInstanceOfSatisfying(AssertionException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_UNAVAILABLE);
                    assertThat(ProblemDetailsAdvice.status(e)).isEqualTo(503);
                });
    }

    @ParameterizedTest
    @EnumSource(JwksCacheMode.class)
    void verifyWhenJwksDownAfterDiscoveryThenUpstreamUnavailable(JwksCacheMode mode) throws Exception {
        idp.removeContext("/jwks");
        String token = sign(claims().build(), idpKey);
        OAuthTokenVerifier verifier = verifier(mode);

        assertThatAssertion(() -> verifier.verify(Mode.DVID, token)).hasCode(ErrorCode.UPSTREAM_UNAVAILABLE);
    }

    private long timerCount(String... tags) {
        return registry.get(OperationMetrics.OPERATION_TIMER).tags(tags).timer().count();
    }

    private double memoCount(String result) {
        return registry.find(MemoMetrics.COUNTER).tags("name", "oauth-token", "result", result).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }

    @Test
    void verifyWhenSameTokenAgainWithMemoThenAnsweredFromMemoWithTheSameResult() throws Exception {
        String token = sign(claims().build(), idpKey);
        OAuthTokenVerifier verifier =
                remembering(JwksCacheMode.REFRESH_AHEAD, Duration.ofMinutes(5), Duration.ofMinutes(1));

        VerifiedOAuthToken first = verifier.verify(Mode.DVID, token);
        VerifiedOAuthToken second = verifier.verify(Mode.DVID, new String(token.toCharArray()));

        assertThat(verifier.remembersTokens()).isTrue();
        assertThat(second).isEqualTo(first);
        assertThat(memoCount("miss")).isEqualTo(1);
        assertThat(memoCount("hit")).isEqualTo(1);
        assertThat(timerCount("mode", "dvid", "operation", "jwks_fetch")).isEqualTo(1);
        assertThat(timerCount("mode", "dvid", "operation", "oauth_verify", "outcome", "success"))
                .isEqualTo(2);
    }

    @Test
    void verifyWhenMemoHoldsATokenThenTamperedAndForeignCopiesAreStillRejected() throws Exception {
        String token = sign(claims().build(), idpKey);
        OAuthTokenVerifier verifier =
                remembering(JwksCacheMode.REFRESH_AHEAD, Duration.ofMinutes(5), Duration.ofMinutes(1));
        verifier.verify(Mode.DVID, token);
        String[] parts = token.split("\\.");
        String forged = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("user0001", "user0002")
                        .getBytes(StandardCharsets.UTF_8));
        String foreign = sign(claims().build(), otherKey);

        for (String bad : List.of(parts[0] + "." + forged + "." + parts[2], foreign, token + ".", "x" + token)) {
            assertThatAssertion(() -> verifier.verify(Mode.DVID, bad), "%s", bad)
                    .hasCodeIn(ErrorCode.BAD_SIGNATURE, ErrorCode.MALFORMED);
        }
        assertThat(memoCount("hit")).isZero();
    }

    @Test
    void verifyWhenRememberedTokenExpiresThenFullVerificationDecidesAndSaysExpired() throws Exception {
        String token =
                sign(claims().expirationTime(Date.from(now.plusSeconds(40))).build(), idpKey);
        OAuthTokenVerifier verifier =
                remembering(JwksCacheMode.REFRESH_AHEAD, Duration.ofMinutes(5), Duration.ofMinutes(1));
        verifier.verify(Mode.DVID, token);

        clock.set(now.plusSeconds(45)); // past exp, within the skew: verified in full again, accepted
        assertThat(verifier.verify(Mode.DVID, token).subject()).isEqualTo("user0001");
        clock.set(now.plusSeconds(71)); // past exp and the skew
        assertThatAssertion(() -> verifier.verify(Mode.DVID, token)).hasCode(ErrorCode.EXPIRED);
        assertThat(memoCount("hit")).isZero();
        assertThat(memoCount("miss"))
                .as("every lookup, the failed verification's too")
                .isEqualTo(3);
    }

    @Test
    void verifyWhenMemoTtlPassesThenVerifiedInFullAgain() throws Exception {
        assertRememberedFor(Duration.ofSeconds(20), Duration.ofMinutes(5), Duration.ofSeconds(20));
    }

    @Test
    void verifyWhenJwksCacheTtlIsShorterThenTheMemoTrustsATokenNoLonger() throws Exception {
        assertRememberedFor(Duration.ofSeconds(15), Duration.ofSeconds(15), Duration.ofMinutes(1));
    }

    /** Verifies a token at 0, just before {@code expected} (a hit) and at {@code expected} (a miss). */
    private void assertRememberedFor(Duration expected, Duration jwksCacheTtl, Duration memoTtl) throws Exception {
        String token = sign(claims().build(), idpKey);
        OAuthTokenVerifier verifier = remembering(JwksCacheMode.REFRESH_AHEAD, jwksCacheTtl, memoTtl);
        verifier.verify(Mode.DVID, token);
        clock.set(now.plus(expected).minusSeconds(1));
        verifier.verify(Mode.DVID, token);
        clock.set(now.plus(expected));
        verifier.verify(Mode.DVID, token);
        assertThat(memoCount("hit")).isEqualTo(1);
        assertThat(memoCount("miss")).isEqualTo(2);
    }

    @Test
    void verifyWhenJwksFetchedOnEveryCallThenNoTokenIsRemembered() throws Exception {
        String token = sign(claims().build(), idpKey);
        OAuthTokenVerifier verifier = remembering(JwksCacheMode.NONE, Duration.ofMinutes(5), Duration.ofMinutes(1));

        verifier.verify(Mode.DVID, token);
        verifier.verify(Mode.DVID, token);

        assertThat(verifier.remembersTokens()).isFalse();
        assertThat(requestsTo("/jwks")).isEqualTo(2);
        assertThat(memoCount("hit") + memoCount("miss")).isZero();
    }
}
