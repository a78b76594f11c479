package io.spiffeidt.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.oauth2Login;
import static org.springframework.security.test.web.servlet.setup.SecurityMockMvcConfigurers.springSecurity;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

import com.sun.net.httpserver.HttpServer;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.RunningWorkload;
import io.spiffeidt.support.testing.StubWorkload;
import io.spiffeidt.support.testing.StubWorkload.Reply;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.testing.TestOAuthIssuer;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.MintResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.user.DefaultOAuth2User;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The subject workload's controllers on a real application (development Workload API, a local
 * OpenID provider, the asserting workload and middle tier played by {@link StubWorkload}s): the JSON
 * API's answers to bad requests (RFC 6750 challenge, RFC 9457 problem codes), the documents a user's
 * session keeps, and the page's endpoints for an anonymous and a logged-in browser (MockMvc on the
 * running application's context, with Spring Security's test support for the login and CSRF).
 */
class SubjectControllersIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path dir;

    private static TestOAuthIssuer idp;
    private static StubWorkload asserting;
    private static StubWorkload mTier;
    private static RunningWorkload subject;
    private static MockMvc page;
    private static HttpServer discovery;

    @BeforeAll
    static void start() throws Exception {
        idp = new TestOAuthIssuer();
        asserting = new StubWorkload(TestIdentities.source(Role.ASSERTING_WL))
                .on("/dvid/mint", r -> Reply.ok(JSON.writeValueAsString(dvid(r))))
                // answers that are no document: the flows must refuse them, keep nothing and call no one
                .on("/anon-mode/mint", r -> Reply.ok("{\"token\":null}"))
                .on("/lsvid/mint", r -> Reply.ok("{\"lsvid\":\"" + b64("{\"token\":{}}") + "\"}"));
        mTier = new StubWorkload(TestIdentities.source(Role.M_TIER))
                .on("/dvid/balance", r -> Reply.ok(JSON.writeValueAsString(account(r, 11))))
                .on("/dvid/deposit", r -> Reply.ok(JSON.writeValueAsString(account(r, 12))));
        subject = RunningWorkload.start(
                SubjectWorkloadApplication.class,
                Role.SUBJECT_WL,
                dir,
                Map.ofEntries(
                        Map.entry("spiffeidt.oauth.issuers[0].issuer", idp.issuer()),
                        Map.entry("spiffeidt.oauth.issuers[0].audience", "spiffeidt"),
                        Map.entry(
                                "spiffeidt.endpoints.asserting-wl",
                                asserting.uri().toString()),
                        Map.entry("spiffeidt.endpoints.m-tier", mTier.uri().toString()),
                        // the page's login (subject-wl.yml) at a provider that only answers discovery: the
                        // tests log in with Spring Security's test support
                        Map.entry("spring.security.oauth2.client.provider.idp.issuer-uri", provider())));
        page = MockMvcBuilders.webAppContextSetup((WebApplicationContext) subject.context())
                .apply(springSecurity())
                .build();
    }

    /** An OpenID provider's discovery document (RFC 8414 fields Spring Security needs); nothing else answers. */
    private static String provider() throws IOException {
        discovery = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String issuer = "http://127.0.0.1:" + discovery.getAddress().getPort();
        byte[] metadata = ("{\"issuer\":\"" + issuer + "\",\"authorization_endpoint\":\"" + issuer
                        + "/authorize\",\"token_endpoint\":\"" + issuer + "/token\",\"jwks_uri\":\"" + issuer
                        + "/jwks\",\"response_types_supported\":[\"code\"],\"subject_types_supported\":[\"public\"],"
                        + "\"id_token_signing_alg_values_supported\":[\"RS256\"]}")
                .getBytes(StandardCharsets.UTF_8);
        discovery.createContext("/.well-known/openid-configuration", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, metadata.length);
            exchange.getResponseBody().write(metadata);
            exchange.close();
        });
        discovery.start();
        return issuer;
    }

    @AfterAll
    static void stop() {
        if (subject != null) {
            subject.close();
        }
        if (discovery != null) {
            discovery.stop(0);
        }
        asserting.close();
        mTier.close();
        idp.close();
    }

    /** A DVID-shaped answer naming the token's user; the subject workload forwards it unchanged. */
    private static MintResponse dvid(StubWorkload.Received request) {
        String header = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
        String payload = b64("{\"iss\":\"" + TestIdentities.id(Role.ASSERTING_WL) + "\",\"sub\":\"" + request.peer()
                + "\",\"dpa\":\"" + idp.issuer() + "\",\"dpr\":\"" + user(request) + "\",\"exp\":"
                + Instant.now().plusSeconds(120).getEpochSecond() + "}");
        return new MintResponse(header + "." + payload + ".c2ln", null, null);
    }

    private static AccountResponse account(StubWorkload.Received request, long balance) {
        return new AccountResponse("user", balance, "dvid", List.of());
    }

    private static String user(StubWorkload.Received request) {
        AccessTokenRequest body = JSON.readValue(request.body(), AccessTokenRequest.class);
        return (String) CompactJws.parse(body.accessToken()).payload().get("sub");
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> api(String path, String authorization, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(subject.uri().toString().replace("https://", "http://"))
                                .resolve(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int calls() {
        return asserting.received().size() + mTier.received().size();
    }

    private static long mints() {
        return asserting.received().stream()
                .filter(r -> r.path().equals("/dvid/mint"))
                .count();
    }

    /**
     * A browser logged in through the page's client registration as {@code user}, its session
     * holding an access token from the IdP for that user that expires at {@code expiresAt}.
     */
    private static RequestPostProcessor login(String user, Instant expiresAt) {
        ClientRegistration registration =
                subject.context().getBean(ClientRegistrationRepository.class).findByRegistrationId("idp");
        OAuth2AccessToken token = new OAuth2AccessToken(
                OAuth2AccessToken.TokenType.BEARER, idp.token(user), expiresAt.minusSeconds(300), expiresAt);
        DefaultOAuth2User principal = new DefaultOAuth2User(List.of(), Map.of("sub", user), "sub");
        return request -> {
            oauth2Login().clientRegistration(registration).oauth2User(principal).postProcessRequest(request);
            // the page's own repository keeps the login's access token in the HTTP session
            subject.context()
                    .getBean(OAuth2AuthorizedClientRepository.class)
                    .saveAuthorizedClient(
                            new OAuth2AuthorizedClient(registration, user, token),
                            new OAuth2AuthenticationToken(principal, List.of(), registration.getRegistrationId()),
                            request,
                            new MockHttpServletResponse());
            return request;
        };
    }

    private static JsonNode json(MockHttpServletResponse response) throws Exception {
        return JSON.readTree(response.getContentAsString());
    }

    // ---- the JSON API ----

    @Test
    void apiWhenNoAuthorizationThenRfc6750ChallengeAndTokenRequiredProblem() throws Exception {
        int before = calls();

        HttpResponse<String> answer = api("/api/dvid/balance", null, "{}");

        assertThat(answer.statusCode()).isEqualTo(401);
        assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith(MediaType.APPLICATION_PROBLEM_JSON_VALUE));
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(problem.get("code").asString()).isEqualTo("TOKEN_REQUIRED");
        assertThat(problem.get("type").asString()).isEqualTo("urn:spiffeidt:problem:token_required");
        assertThat(problem.get("status").asInt()).isEqualTo(401);
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void apiWhenAuthorizationIsNotABearerTokenThenTokenRequired() throws Exception {
        String token = idp.token("user0101");

        HttpResponse<String> basic = api("/api/dvid/mint", "Basic " + token, "{}");
        HttpResponse<String> empty = api("/api/dvid/mint", "Bearer   ", "{}");
        HttpResponse<String> lowerCase = api("/api/dvid/mint", "bearer " + token, "{}");

        assertThat(basic.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(basic.body()).get("code").asString()).isEqualTo("TOKEN_REQUIRED");
        assertThat(empty.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(empty.body()).get("code").asString()).isEqualTo("TOKEN_REQUIRED");
        // the scheme is case-insensitive (RFC 7235)
        assertThat(lowerCase.statusCode()).as(lowerCase.body()).isEqualTo(200);
    }

    @Test
    void apiWhenUnknownModeThenNotFoundProblemWithoutVerifyingTheToken() throws Exception {
        int before = calls();

        HttpResponse<String> answer = api("/api/x-mode/mint", "Bearer not-even-a-jwt", "{}");

        assertThat(answer.statusCode()).isEqualTo(404);
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(problem.get("code").asString()).isEqualTo("NOT_FOUND");
        assertThat(problem.get("type").asString()).isEqualTo("urn:spiffeidt:problem:not_found");
        assertThat(problem.get("detail").asString()).contains("dvid", "id-mode", "anon-mode", "lsvid");
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void apiWhenAccessTokenIsForgedThenRefusedWithoutCallingAnyone() throws Exception {
        int before = calls();
        String token = idp.token("user0102");
        String forged = token.substring(0, token.lastIndexOf('.') + 1) + "AAAA";

        HttpResponse<String> answer = api("/api/dvid/balance", "Bearer " + forged, "{}");

        assertThat(answer.statusCode()).isBetween(400, 499);
        assertThat(JSON.readTree(answer.body()).get("code").asString()).isNotBlank();
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void depositWhenAmountIsNotANumberThenMalformedProblemWithoutCallingAnyone() throws Exception {
        int before = calls();

        HttpResponse<String> answer =
                api("/api/dvid/deposit", "Bearer " + idp.token("user0103"), "{\"amount\":\"ten\"}");
        HttpResponse<String> notJson = api("/api/dvid/deposit", "Bearer " + idp.token("user0103"), "amount=10");

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(answer.body()).get("code").asString()).isEqualTo("MALFORMED");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(notJson.body()).get("code").asString()).isEqualTo("MALFORMED");
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void mintWhenDvidThenAnswerCarriesTheDocumentAndTheSessionKeepsItForThatUserAndMode() throws Exception {
        String alice = idp.token("user0104");
        long before = mints();

        HttpResponse<String> minted = api("/api/dvid/mint", "Bearer " + alice, "{}");
        HttpResponse<String> balance = api("/api/dvid/balance", "Bearer " + alice, "{}");
        HttpResponse<String> deposit = api("/api/dvid/deposit", "Bearer " + alice, "{\"amount\":5}");
        HttpResponse<String> otherUser = api("/api/dvid/balance", "Bearer " + idp.token("user0105"), "{}");

        assertThat(minted.statusCode()).as(minted.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(minted.body());
        assertThat(body.get("mode").asString()).isEqualTo("dvid");
        assertThat(body.get("user").asString()).isEqualTo("user0104");
        assertThat(body.get("size").asInt())
                .isEqualTo(body.get("token").asString().length());
        assertThat(body.has("expiresAt")).isTrue();
        assertThat(body.has("artifacts")).isFalse();
        // the kept document serves the same user's next calls: no second mint
        assertThat(JSON.readTree(balance.body()).get("minted").asBoolean()).isFalse();
        assertThat(JSON.readTree(balance.body()).get("balance").asLong()).isEqualTo(11);
        assertThat(JSON.readTree(deposit.body()).get("minted").asBoolean()).isFalse();
        assertThat(JSON.readTree(deposit.body()).get("balance").asLong()).isEqualTo(12);
        // another user gets a document of their own
        assertThat(JSON.readTree(otherUser.body()).get("minted").asBoolean()).isTrue();
        assertThat(mints()).isEqualTo(before + 2);
        StubWorkload.Received forwarded = mTier.received().stream()
                .filter(r -> r.path().equals("/dvid/deposit"))
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(forwarded.body()).contains(body.get("token").asString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"anon-mode", "lsvid"})
    void balanceWhenAssertingAnswersNoValidDocumentThenMalformedNothingKeptAndTheMiddleTierNeverCalled(String mode)
            throws Exception {
        String token = idp.token("user0111");
        String mintPath = mode.equals("lsvid") ? "/lsvid/mint" : "/anon-mode/mint";
        long mintsBefore = asserting.received().stream()
                .filter(r -> r.path().equals(mintPath))
                .count();
        int middleTierBefore = mTier.received().size();

        HttpResponse<String> first = api("/api/" + mode + "/balance", "Bearer " + token, "{}");
        HttpResponse<String> second = api("/api/" + mode + "/balance", "Bearer " + token, "{}");

        assertThat(first.statusCode()).as(first.body()).isEqualTo(400);
        assertThat(JSON.readTree(first.body()).get("code").asString()).isEqualTo("MALFORMED");
        assertThat(second.statusCode()).isEqualTo(400);
        // nothing was kept: the second call asked the asserting workload again
        assertThat(asserting.received().stream()
                        .filter(r -> r.path().equals(mintPath))
                        .count())
                .isEqualTo(mintsBefore + 2);
        assertThat(mTier.received()).hasSize(middleTierBefore);
    }

    // ---- the page ----

    @Test
    void pageSessionWhenAnonymousThenNotAuthenticatedWithTheLoginsAndACsrfToken() throws Exception {
        MockHttpServletResponse response =
                page.perform(get("/page/session")).andReturn().getResponse();

        assertThat(response.getStatus()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.get("authenticated").asBoolean()).isFalse();
        assertThat(body.has("user")).isFalse();
        assertThat(body.get("logins")).hasSize(1);
        assertThat(body.get("logins").get(0).get("id").asString()).isEqualTo("idp");
        assertThat(body.get("logins").get(0).get("name").asString()).isEqualTo("the development IdP");
        assertThat(body.get("logins").get(0).get("url").asString()).isEqualTo("/oauth2/authorization/idp");
        assertThat(body.get("csrf").get("token").asString()).isNotBlank();
        assertThat(body.get("csrf").get("header").asString()).isNotBlank();
    }

    @Test
    void pageSessionWhenLoggedInThenAuthenticatedAsTheUser() throws Exception {
        MockHttpServletResponse response = page.perform(get("/page/session")
                        .with(login("user0106", Instant.now().plusSeconds(300))))
                .andReturn()
                .getResponse();

        JsonNode body = json(response);
        assertThat(body.get("authenticated").asBoolean()).isTrue();
        assertThat(body.get("user").asString()).isEqualTo("user0106");
    }

    @Test
    void pageApiWhenAnonymousThenSessionExpiredProblem() throws Exception {
        int before = calls();

        MockHttpServletResponse response = page.perform(
                        post("/page/api/dvid/balance").with(csrf()))
                .andReturn()
                .getResponse();

        assertThat(response.getStatus()).isEqualTo(401);
        assertThat(response.getContentType()).startsWith(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        assertThat(json(response).get("code").asString()).isEqualTo("SESSION_EXPIRED");
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void pageApiWhenLoggedInWithoutCsrfTokenThenForbidden() throws Exception {
        int before = calls();

        MockHttpServletResponse response = page.perform(post("/page/api/dvid/balance")
                        .with(login("user0107", Instant.now().plusSeconds(300))))
                .andReturn()
                .getResponse();

        assertThat(response.getStatus()).isEqualTo(403);
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void pageApiWhenLoginsAccessTokenExpiredThenSessionExpiredAndTheSessionEnds() throws Exception {
        int before = calls();

        var result = page.perform(post("/page/api/dvid/balance")
                        .with(csrf())
                        .with(login("user0108", Instant.now().minusSeconds(1))))
                .andReturn();

        assertThat(result.getResponse().getStatus()).isEqualTo(401);
        assertThat(json(result.getResponse()).get("code").asString()).isEqualTo("SESSION_EXPIRED");
        assertThat(result.getRequest().getSession(false)).isNull();
        assertThat(calls()).isEqualTo(before);
    }

    @Test
    void pageMintWhenLoggedInThenTheDocumentIsDecodedWithoutTheRawClaims() throws Exception {
        MockHttpServletResponse response = page.perform(post("/page/api/dvid/mint")
                        .with(csrf())
                        .with(login("user0109", Instant.now().plusSeconds(300))))
                .andReturn()
                .getResponse();

        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.get("user").asString()).isEqualTo("user0109");
        assertThat(body.has("claims")).isFalse();
        JsonNode document = body.get("document");
        assertThat(document.get("mode").asString()).isEqualTo("DVID");
        assertThat(document.get("layers")).hasSize(1);
        JsonNode layer = document.get("layers").get(0);
        assertThat(layer.get("dpr").asString()).isEqualTo("user0109");
        assertThat(layer.get("subject").asString()).isEqualTo(TestIdentities.id(Role.SUBJECT_WL));
        assertThat(layer.get("signatureAlgorithm").asString()).isEqualTo("RS256");
    }

    @Test
    void pageDepositWhenLoggedInThenTheJsonApisAnswerWithTheLoginsToken() throws Exception {
        MockHttpServletResponse response = page.perform(post("/page/api/dvid/deposit")
                        .with(csrf())
                        .with(login("user0110", Instant.now().plusSeconds(300)))
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"amount\":3}"))
                .andReturn()
                .getResponse();

        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.get("balance").asLong()).isEqualTo(12);
        assertThat(body.get("minted").asBoolean()).isTrue();
        assertThat(asserting.received().stream()
                        .filter(r -> r.path().equals("/dvid/mint"))
                        .map(SubjectControllersIT::user))
                .contains("user0110");
    }
}
