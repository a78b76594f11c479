package io.spiffeidt.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A browser-less client of a running IdP for the integration tests: plain HTTP with a cookie jar
 * and no automatic redirects, the authorization-code + PKCE flow, and JWT verification against the
 * JWKS the discovery document names (the way the workloads verify).
 */
public final class IdpTestClient {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

    private static final SecureRandom RANDOM = new SecureRandom();

    private final URI base;

    private final HttpClient http;

    /**
     * A client of the IdP at {@code base}, with its own cookie jar (its own browser session).
     *
     * @param base e.g. {@code http://127.0.0.1:12345}
     */
    public IdpTestClient(URI base) {
        this.base = base;
        this.http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    /** The IdP base URI. */
    public URI base() {
        return base;
    }

    /** GET a path or absolute URI, with the given Accept header. */
    public HttpResponse<String> get(String pathOrUri, String accept) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(pathOrUri))
                .header("Accept", accept)
                .timeout(Duration.ofSeconds(20))
                .GET()
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** GET a path with a bearer token. */
    public HttpResponse<String> getWithBearer(String path, String token) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .header("Accept", "application/json")
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(20))
                .GET()
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** POST a form to a path. */
    public HttpResponse<String> postForm(String path, Map<String, String> form) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(form(form)))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** POST a JSON body to a path. */
    public HttpResponse<String> postJson(String path, String json) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON object of a response body. */
    public static Map<String, Object> json(HttpResponse<String> response) throws Exception {
        return JSONObjectUtils.parse(response.body());
    }

    /** The OIDC discovery document. */
    public Map<String, Object> discovery() throws Exception {
        HttpResponse<String> response = get("/.well-known/openid-configuration", "application/json");
        assertThat(response.statusCode()).isEqualTo(200);
        return json(response);
    }

    /** {@code POST /dev/token}. */
    public HttpResponse<String> devToken(String username, String password) throws Exception {
        return postForm("/dev/token", Map.of("username", username, "password", password));
    }

    /**
     * Verifies a JWT's RS256 signature with the JWKS at the discovery's {@code jwks_uri}, its
     * issuer (equal to the discovery's) and its time window.
     *
     * @return the verified claims
     */
    public JWTClaimsSet verify(String jwt) throws Exception {
        Map<String, Object> discovery = discovery();
        var keys = JWKSourceBuilder.create(
                        URI.create((String) discovery.get("jwks_uri")).toURL())
                .retrying(false)
                .build();
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        // access tokens are typed at+jwt (RFC 9068), ID tokens untyped or JWT
        processor.setJWSTypeVerifier(new com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier<>(
                new com.nimbusds.jose.JOSEObjectType("at+jwt"), com.nimbusds.jose.JOSEObjectType.JWT, null));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, keys));
        JWTClaimsSet claims = processor.process(jwt, null);
        assertThat(claims.getIssuer()).isEqualTo(discovery.get("issuer"));
        return claims;
    }

    /**
     * Verifies a JWT's RS256 signature and time window with the JWKS fetched from this client's
     * base URI (for an IdP whose configured issuer does not resolve here).
     *
     * @return the verified claims
     */
    public JWTClaimsSet verifyWithLocalJwks(String jwt) throws Exception {
        HttpResponse<String> jwks = get("/oauth2/jwks", "application/json");
        assertThat(jwks.statusCode()).isEqualTo(200);
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        // access tokens are typed at+jwt (RFC 9068), ID tokens untyped or JWT
        processor.setJWSTypeVerifier(new com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier<>(
                new com.nimbusds.jose.JOSEObjectType("at+jwt"), com.nimbusds.jose.JOSEObjectType.JWT, null));
        processor.setJWSKeySelector(
                new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(JWKSet.parse(jwks.body()))));
        return processor.process(jwt, null);
    }

    /** The tokens and request values of one authorization-code flow. */
    public record CodeFlowResult(Map<String, Object> tokenResponse, String nonce) {}

    /**
     * Runs the authorization-code flow with PKCE as a browser would: authorize, login form with
     * its CSRF token, back to authorize, code at the redirect URI, code exchange.
     */
    public CodeFlowResult authorizationCodeFlow(
            String clientId, String redirectUri, String scope, String username, String password) throws Exception {
        String verifier = random();
        String challenge = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                        MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        String state = random();
        String nonce = random();
        Map<String, String> params = new LinkedHashMap<>();
        params.put("response_type", "code");
        params.put("client_id", clientId);
        params.put("redirect_uri", redirectUri);
        params.put("scope", scope);
        params.put("state", state);
        params.put("nonce", nonce);
        params.put("code_challenge", challenge);
        params.put("code_challenge_method", "S256");

        HttpResponse<String> authorize = get("/oauth2/authorize?" + form(params), "text/html");
        assertThat(authorize.statusCode()).isEqualTo(302);
        assertThat(location(authorize)).endsWith("/login");

        HttpResponse<String> loginPage = get(location(authorize), "text/html");
        assertThat(loginPage.statusCode()).isEqualTo(200);
        Matcher csrf = CSRF.matcher(loginPage.body());
        assertThat(csrf.find()).as("CSRF field in the login form").isTrue();

        HttpResponse<String> login =
                postForm("/login", Map.of("username", username, "password", password, "_csrf", csrf.group(1)));
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(location(login)).contains("/oauth2/authorize?");

        HttpResponse<String> resumed = get(location(login), "text/html");
        assertThat(resumed.statusCode()).isEqualTo(302);
        URI callback = URI.create(location(resumed));
        assertThat(callback.toString()).startsWith(redirectUri + "?");
        Map<String, String> answer = query(callback);
        assertThat(answer).containsEntry("state", state).containsKey("code");

        HttpResponse<String> token = postForm(
                "/oauth2/token",
                Map.of(
                        "grant_type", "authorization_code",
                        "code", answer.get("code"),
                        "redirect_uri", redirectUri,
                        "client_id", clientId,
                        "code_verifier", verifier));
        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        return new CodeFlowResult(json(token), nonce);
    }

    /** The Location header of a redirect. */
    public static String location(HttpResponse<?> response) {
        return response.headers().firstValue("Location").orElse("");
    }

    /** The decoded query parameters of a URI. */
    public static Map<String, String> query(URI uri) {
        String raw = uri.getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return Map.of();
        }
        Map<String, String> result = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            result.put(decode(key), decode(value));
        }
        return result;
    }

    /** A fresh random URL-safe string (PKCE verifier, state, nonce). */
    public static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String form(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String decode(String value) {
        return java.net.URLDecoder.decode(value, StandardCharsets.UTF_8);
    }
}
