package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the bearer-forward baseline refuses (docs/formats/bearer-forward.md "Rejections"): callers
 * off the allow-lists (403), and at m-tier and target-wl a missing access token (401 {@code
 * TOKEN_REQUIRED}, challenge {@code Bearer}) and a malformed, expired, other-audience or tampered
 * one, and one of an issuer off the allow-list, one signed by a key the IdP's JWKS does not have,
 * an ID token and an unsigned one (there and at subject-wl), each 401 with its code and the RFC
 * 6750 challenge {@code Bearer error="invalid_token"}. Tokens are signed with the development IdP's
 * own key, so only the rule under test fails. And the weakness it documents: the user's token works
 * at every tier.
 */
class BearerForwardAttackIT extends EmbeddedStackIT {

    private static final String CHALLENGE = "Bearer error=\"invalid_token\"";

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    private static Answer present(String as, String workload, String operation, String body, String token) {
        return client.asWorkload(
                as,
                workload,
                "/bearer-forward/" + operation,
                body,
                token == null ? Map.of() : Map.of("Authorization", "Bearer " + token));
    }

    /** The two hops that verify a forwarded token: subject-wl to m-tier, m-tier to target-wl. */
    private static final List<String[]> HOPS =
            List.of(new String[] {"subject-wl", "m-tier"}, new String[] {"m-tier", "target-wl"});

    private static void assertInvalidToken(Answer a, String code) {
        assertThat(a.status()).as(a.body()).isEqualTo(401);
        assertThat(a.json().get("code").asString()).isEqualTo(code);
        assertThat(a.wwwAuthenticate()).isEqualTo(CHALLENGE);
    }

    @Test
    void callWhenCallerNotOnTheAllowListThen403EvenWithAValidToken() {
        String token = client.userToken("user0071");
        for (String workload : List.of("m-tier", "target-wl")) {
            Answer intruder = present("intruder", workload, "balance", "{}", token);
            assertThat(intruder.status()).as(intruder.body()).isEqualTo(403);
            assertThat(intruder.json().get("code").asString()).isEqualTo("CALLER_NOT_ALLOWED");
        }
        Answer skipped = present("subject-wl", "target-wl", "balance", "{}", token);
        assertThat(skipped.status()).as(skipped.body()).isEqualTo(403);
        assertThat(skipped.json().get("code").asString()).isEqualTo("CALLER_NOT_ALLOWED");
    }

    @Test
    void callWhenNoBearerTokenThen401TokenRequiredAndMalformedThen401InvalidToken() {
        for (String[] hop : HOPS) {
            // no bearer credentials at all: RFC 6750 section 3.1, a challenge without an error code
            Answer none = present(hop[0], hop[1], "balance", "{}", null);
            Answer basic = client.asWorkload(
                    hop[0], hop[1], "/bearer-forward/balance", "{}", Map.of("Authorization", "Basic dXNlcjpwYXNz"));
            for (Answer a : List.of(none, basic)) {
                assertThat(a.status()).as(a.body()).isEqualTo(401);
                assertThat(a.json().get("code").asString()).isEqualTo("TOKEN_REQUIRED");
                assertThat(a.wwwAuthenticate()).isEqualTo("Bearer");
            }
            assertInvalidToken(present(hop[0], hop[1], "balance", "{}", "not-a-jwt"), "MALFORMED");
            // a token in the body instead: this mode carries no document
            Answer body = present(hop[0], hop[1], "balance", "{\"token\":\"e30\"}", client.userToken("user0072"));
            assertThat(body.status()).as(body.body()).isEqualTo(400);
            assertThat(body.json().get("code").asString()).isEqualTo("MALFORMED");
        }
    }

    @Test
    void callWhenTokenExpiredThen401Expired() throws Exception {
        String expired = signedByIdp(claims("user0073")
                .issueTime(Date.from(Instant.now().minusSeconds(7200)))
                .expirationTime(Date.from(Instant.now().minusSeconds(3600)))
                .build());
        for (String[] hop : HOPS) {
            assertInvalidToken(present(hop[0], hop[1], "balance", "{}", expired), "EXPIRED");
        }
    }

    @Test
    void callWhenTokenForAnotherAudienceThen401WrongAudience() throws Exception {
        String other = signedByIdp(claims("user0074").audience("another-api").build());
        for (String[] hop : HOPS) {
            assertInvalidToken(present(hop[0], hop[1], "balance", "{}", other), "WRONG_AUDIENCE");
        }
    }

    @Test
    void callWhenTokenTamperedThen401BadSignature() {
        String tampered = withPayloadCharChanged(client.userToken("user0075"), 10);
        for (String[] hop : HOPS) {
            Answer a = present(hop[0], hop[1], "balance", "{}", tampered);
            assertThat(a.status()).as(a.body()).isEqualTo(401);
            assertThat(a.json().get("code").asString()).isIn("BAD_SIGNATURE", "MALFORMED");
            assertThat(a.wwwAuthenticate()).isEqualTo(CHALLENGE);
            assertThat(a.body()).doesNotContain(tampered);
        }
    }

    /**
     * The refusals the shared {@code OAuthTokenVerifier} makes before or instead of a signature check
     * (docs/formats/bearer-forward.md "Rejections"), through the running stack: where the user
     * presents the token (subject-wl) and at both hops that verify the forwarded one.
     */
    @Test
    void callWhenIssuerUnknownKeyUnknownIdTokenOrAlgNoneThen401WithItsCodeAtEveryTier() throws Exception {
        // the IdP's own key, but an issuer off the allow-list: refused before any key is looked up
        String foreignIssuer =
                signedByIdp(claims("user0078").issuer("https://evil.example").build());
        // the IdP's issuer, signed by a key its JWKS does not have
        String unknownKey = signedAccessToken(claims("user0078").build(), randomRsaKey("not-the-idps"));
        // a genuine token of the IdP, but the OIDC ID token of the login, not its access token
        String idToken = idpTokens("user0078").json().get("id_token").asString();
        // another algorithm: an unsecured JWT (alg none)
        String unsigned = new PlainJWT(claims("user0078").build()).serialize();
        Map<String, String> cases = Map.of(
                foreignIssuer, "UNKNOWN_ISSUER",
                unknownKey, "UNTRUSTED_KEY",
                idToken, "UNSUPPORTED",
                unsigned, "UNSUPPORTED");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            assertInvalidToken(client.user("bearer-forward", "balance", c.getKey(), "{}"), c.getValue());
            for (String[] hop : HOPS) {
                assertInvalidToken(present(hop[0], hop[1], "balance", "{}", c.getKey()), c.getValue());
            }
        }
    }

    /**
     * The documented weakness (docs/formats/bearer-forward.md "What an attacker can do"): the token
     * is the only proof, and it is the same at every tier. Whoever holds it (a log line, a memory
     * dump, any tier it passed through) and can call a tier acts as the user there, at m-tier and
     * directly at the target, until it expires; nothing binds it to the workload presenting it.
     */
    @Test
    void tokenWhenLeakedThenAcceptedAtEveryTierAsTheUser() {
        String victim = "user0077";
        String token = client.userToken(victim);
        assertThat(client.user("bearer-forward", "deposit", token, "{\"amount\":10}")
                        .status())
                .isEqualTo(200);

        // replayed by any workload allowed to call m-tier
        Answer atMTier = present("subject-wl", "m-tier", "deposit", "{\"amount\":1}", token);
        assertThat(atMTier.status()).as(atMTier.body()).isEqualTo(200);
        assertThat(atMTier.json().get("user").asString()).isEqualTo(victim);
        // and by m-tier directly at the target: the same token, accepted unchanged
        Answer atTarget = present("m-tier", "target-wl", "deposit", "{\"amount\":1}", token);
        assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(200);
        assertThat(atTarget.json().get("balance").asLong()).isEqualTo(12);
    }

    private static JWTClaimsSet.Builder claims(String user) {
        return new JWTClaimsSet.Builder()
                .issuer(stack.idpUrl().toString().replaceAll("/$", ""))
                .subject(user)
                .audience("spiffeidt")
                .issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(600)));
    }

    /** A token signed with the development IdP's own key (read from its running context). */
    @SuppressWarnings("unchecked")
    private static String signedByIdp(JWTClaimsSet claims) throws Exception {
        JWKSource<SecurityContext> keys = stack.context("idp").getBean(JWKSource.class);
        List<JWK> found = keys.get(
                new JWKSelector(new JWKMatcher.Builder().privateOnly(true).build()), null);
        return signedAccessToken(claims, found.get(0).toRSAKey());
    }
}
