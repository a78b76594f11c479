package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The Txn-Token mode through the four tiers over real SPIFFE mTLS with the development IdP (the
 * shared flow contract, {@link ModeFlowContractIT}): the subject workload exchanges the access token
 * at the Txn-Token Service (asserting-wl), m-tier verifies and has it replaced, target-wl verifies
 * the replacement; and an independent verifier, nimbus alone with the service's JWKS and the draft's
 * rules, accepts what the service issued and refuses it tampered.
 */
class TxnTokenFlowIT extends ModeFlowContractIT {

    @BeforeAll
    static void start() {
        // the thesis reproduction, no memo: every verification fetches the service's JWKS
        // (TxnTokenAttackIT runs with the memos on, the key set held)
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.memo.enabled", "false"));
    }

    @Override
    String mode() {
        return "txn-token";
    }

    @Override
    String userClaim() {
        return "sub";
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        assertThat(mint.get("header").get("typ").asString()).isEqualTo("txntoken+jwt");
        assertThat(mint.get("header").get("alg").asString()).isEqualTo("ES256");
        JsonNode claims = mint.get("claims");
        assertThat(claims.get("aud").asString()).isEqualTo(trustDomain());
        assertThat(claims.get("iss").asString()).isEqualTo(id("asserting-wl"));
        assertThat(claims.get("req_wl").asString()).isEqualTo(id("subject-wl"));
        assertThat(claims.get("txn").asString()).isNotBlank();
        assertThat(claims.get("scope").asString()).isEqualTo("account");
        assertThat(claims.get("tctx").get("dpa").asString()).startsWith("http://127.0.0.1:");
        // the access token never travels inside the Txn-Token (draft §13.4)
        assertThat(mint.get("token").asString()).doesNotContain(accessToken.split("\\.")[1]);
    }

    /** The service, the subject workload that asked, m-tier that had it replaced, then the target. */
    @Override
    void assertPath(List<String> path) {
        assertThat(path).containsExactly(id("asserting-wl"), id("subject-wl"), id("m-tier"), id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        return List.of("{\"token\":\"a.b.c\"}");
    }

    static String trustDomain() {
        return client.idOf("asserting-wl").trustDomain();
    }

    /** The draft's receiver rules (§9, §12.2) in nimbus alone: type, ES256 under the service's JWKS, audience, required claims. */
    private static DefaultJWTProcessor<SecurityContext> independentVerifier() throws Exception {
        Answer jwks = client.getAsWorkload("target-wl", "asserting-wl", "/txn-token/keys");
        assertThat(jwks.status()).as(jwks.body()).isEqualTo(200);
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new JOSEObjectType("txntoken+jwt")));
        processor.setJWSKeySelector(
                new JWSVerificationKeySelector<>(JWSAlgorithm.ES256, new ImmutableJWKSet<>(JWKSet.parse(jwks.body()))));
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(
                trustDomain(), null, Set.of("iat", "exp", "aud", "txn", "sub", "scope", "req_wl")));
        return processor;
    }

    @Test
    void independentVerifierWhenServiceIssuedThenAcceptedAndTamperedRefused() throws Exception {
        String token = client.user("txn-token", "mint", client.userToken("user0081"), null)
                .json()
                .get("token")
                .asString();
        DefaultJWTProcessor<SecurityContext> verifier = independentVerifier();

        JWTClaimsSet claims = verifier.process(token, null);

        assertThat(claims.getSubject()).isEqualTo("user0081");
        assertThat(claims.getAudience()).containsExactly(trustDomain());
        assertThat(claims.getStringClaim("txn")).isNotBlank();
        String tampered = withPayloadCharChanged(token, 12);
        assertThatThrownBy(() -> verifier.process(tampered, null)).isInstanceOf(Exception.class);
    }

    @Test
    void independentVerifierWhenReplacedThenAcceptedWithTheSameTransaction() throws Exception {
        String token = client.user("txn-token", "mint", client.userToken("user0082"), null)
                .json()
                .get("token")
                .asString();
        String form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange"
                + "&requested_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Atxn_token"
                + "&audience=" + trustDomain() + "&scope=account&subject_token=" + token
                + "&subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Atxn_token";

        Answer replaced = client.asWorkloadForm("m-tier", "asserting-wl", "/txn-token/token", form);

        assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
        assertThat(replaced.json().get("token_type").asString()).isEqualTo("N_A");
        assertThat(replaced.json().get("issued_token_type").asString())
                .isEqualTo("urn:ietf:params:oauth:token-type:txn_token");
        assertThat(replaced.json().has("refresh_token")).isFalse();
        DefaultJWTProcessor<SecurityContext> verifier = independentVerifier();
        JWTClaimsSet original = verifier.process(token, null);
        JWTClaimsSet replacement =
                verifier.process(replaced.json().get("access_token").asString(), null);
        assertThat(replacement.getStringClaim("txn")).isEqualTo(original.getStringClaim("txn"));
        assertThat(replacement.getSubject()).isEqualTo(original.getSubject());
        assertThat(replacement.getStringClaim("req_wl")).isEqualTo(id("m-tier"));
        assertThat(replacement.getExpirationTime()).isBeforeOrEqualTo(original.getExpirationTime());
    }

    /**
     * The wire of draft §12.1: the token the service issued is served when subject-wl sends it in
     * the {@code Txn-Token} header, and refused ({@code MALFORMED}, not ignored) when it comes in the
     * JSON body as the documents of the other modes do.
     */
    @Test
    void wireWhenIssuedTokenInTheHeaderThenServedAndInTheBodyThenRefused() {
        String token = client.user("txn-token", "mint", client.userToken("user0084"), null)
                .json()
                .get("token")
                .asString();

        Answer inHeader = client.asWorkload(
                "subject-wl", "m-tier", "/txn-token/deposit", "{\"amount\":3}", Map.of("Txn-Token", token));
        Answer inBody = client.asWorkload(
                "subject-wl",
                "m-tier",
                "/txn-token/deposit",
                "{\"token\":" + SystemClient.quote(token) + ",\"amount\":3}");

        assertThat(inHeader.status()).as(inHeader.body()).isEqualTo(200);
        assertThat(inHeader.json().get("user").asString()).isEqualTo("user0084");
        assertThat(inHeader.json().get("balance").asLong()).isEqualTo(3);
        assertThat(inBody.status()).as(inBody.body()).isEqualTo(400);
        assertThat(inBody.json().get("code").asString()).isEqualTo("MALFORMED");
        assertThat(inBody.body()).doesNotContain(token);
        // nothing was deposited by the refused request
        assertThat(client.user("txn-token", "balance", client.userToken("user0084"), null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(3);
    }

    @Test
    void metricsWhenFlowRanThenEveryTierVerifiedAndMTierAskedForAReplacement() {
        assertThat(client.user("txn-token", "balance", client.userToken("user0083"), null)
                        .status())
                .isEqualTo(200);
        assertThat(client.prometheus("m-tier").body())
                .contains("mode=\"txn-token\"")
                .contains("operation=\"validate\"")
                .contains("operation=\"mint_call\"")
                .contains("operation=\"target_call\"");
        assertThat(client.prometheus("target-wl").body())
                .contains("mode=\"txn-token\"")
                .contains("operation=\"validate\"");
        assertThat(client.prometheus("asserting-wl").body())
                .contains("mode=\"txn-token\"")
                .contains("operation=\"mint\"");
    }
}
