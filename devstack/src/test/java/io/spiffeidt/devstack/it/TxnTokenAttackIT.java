package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.util.JSONObjectUtils;
import io.spiffeidt.asserting.txntoken.TxnTokenServiceKey;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every rejection of docs/formats/txn-token.md through the running stack, each with its code: the
 * {@code Txn-Token} header of draft §12.1 (missing, repeated, empty, or the token in the body
 * instead: {@code MALFORMED}), and the token at the middle tier and the target (tokens signed with the service's own key where a claim rule is under
 * test, as a stolen key or a faulty service would sign them; with a foreign key for the key rules),
 * and at the Txn-Token Service's exchange endpoint (who may ask for what).
 */
class TxnTokenAttackIT extends EmbeddedStackIT {

    private static final String GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
    private static final String TXN_TYPE = "urn:ietf:params:oauth:token-type:txn_token";
    private static final String ACCESS_TYPE = "urn:ietf:params:oauth:token-type:access_token";
    private static final String TXN_TOKEN_HEADER = "Txn-Token";

    private static PrivateKey serviceKey;
    private static String serviceKid;

    @BeforeAll
    static void start() throws Exception {
        startStack(DevStackSettings.ephemeral());
        TxnTokenServiceKey key = stack.context("asserting-wl").getBean(TxnTokenServiceKey.class);
        serviceKey = key.privateKey();
        serviceKid = TxnTokenKeys.thumbprint(key.publicKey());
    }

    private static String trustDomain() {
        return client.idOf("asserting-wl").trustDomain();
    }

    private static Map<String, Object> header() {
        Map<String, Object> h = new TreeMap<>();
        h.put("alg", "ES256");
        h.put("kid", serviceKid);
        h.put("typ", "txntoken+jwt");
        return h;
    }

    private static Map<String, Object> claims(String user) {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> c = new TreeMap<>();
        c.put("aud", trustDomain());
        c.put("exp", now + 60);
        c.put("iat", now);
        c.put("iss", client.idOf("asserting-wl").toString());
        c.put("req_wl", client.idOf("subject-wl").toString());
        c.put("scope", "account");
        c.put("sub", user);
        c.put("tctx", Map.of("dpa", "http://127.0.0.1:9000"));
        c.put("txn", "attack-" + user);
        return c;
    }

    /** Signs {@code claims} under {@code header} with {@code key}, in nimbus (no class of ours). */
    private static String sign(Map<String, Object> header, Map<String, Object> claims, PrivateKey key) {
        try {
            JWSObject jws = new JWSObject(
                    JWSHeader.parse(JSONObjectUtils.toJSONString(header)),
                    new Payload(JSONObjectUtils.toJSONString(claims)));
            jws.sign(new ECDSASigner((ECPrivateKey) key));
            return jws.serialize();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair foreignKey() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        return gen.generateKeyPair();
    }

    /** The two calls a Txn-Token travels on: subject-wl to m-tier, m-tier to target-wl. */
    private static final String[][] HOPS = {{"subject-wl", "m-tier"}, {"m-tier", "target-wl"}};

    /** {@code POST /txn-token/balance} at {@code call[1]} as {@code call[0]} with {@code body} and these Txn-Token lines. */
    private static Answer present(String[] call, String body, String... txnTokenHeaders) {
        return client.asWorkloadRepeating(
                call[0],
                call[1],
                "/txn-token/balance",
                body,
                txnTokenHeaders.length == 0 ? Map.of() : Map.of(TXN_TOKEN_HEADER, List.of(txnTokenHeaders)));
    }

    /** The token, in the Txn-Token header, is refused with {@code code} at the middle tier and at the target. */
    private static void assertRefused(String token, String code) {
        for (String[] call : HOPS) {
            Answer a = present(call, "{}", token);
            assertThat(a.status()).as(call[1] + ": " + a.body()).isBetween(400, 499);
            assertThat(a.json().get("code").asString())
                    .as(call[1] + ": " + a.body())
                    .isEqualTo(code);
            assertThat(a.body()).doesNotContain(token);
        }
    }

    @Test
    void attackWhenHandMadeWithTheServiceKeyAndEveryRuleMetThenAccepted() {
        // the control: the same signing path, nothing broken, is served at both tiers
        String token = sign(header(), claims("user0071"), serviceKey);
        for (String[] call : HOPS) {
            Answer ok = present(call, "{}", token);
            assertThat(ok.status()).as(call[1] + ": " + ok.body()).isEqualTo(200);
            assertThat(ok.json().get("user").asString()).isEqualTo("user0071");
        }
    }

    // ---- the Txn-Token header (draft §12.1) ---------------------------------------------------

    @Test
    void headerWhenMissingRepeatedOrEmptyThenMalformed() {
        String token = sign(header(), claims("user0084"), serviceKey);
        for (String[] call : HOPS) {
            for (Answer a : List.of(present(call, "{}"), present(call, "{}", token, token), present(call, "{}", ""))) {
                assertThat(a.status()).as(call[1] + ": " + a.body()).isEqualTo(400);
                assertThat(a.json().get("code").asString()).as(a.body()).isEqualTo("MALFORMED");
                assertThat(a.body()).doesNotContain(token);
            }
        }
    }

    /**
     * A valid Txn-Token in the JSON body, where the other modes carry their documents, is refused
     * (not ignored): alone, and beside the same token in the header.
     */
    @Test
    void headerWhenTokenInTheBodyInsteadThenRefusedMalformed() {
        String token = sign(header(), claims("user0085"), serviceKey);
        String body = "{\"token\":" + SystemClient.quote(token) + "}";
        for (String[] call : HOPS) {
            for (Answer a : List.of(present(call, body), present(call, body, token))) {
                assertThat(a.status()).as(call[1] + ": " + a.body()).isEqualTo(400);
                assertThat(a.json().get("code").asString()).as(a.body()).isEqualTo("MALFORMED");
                assertThat(a.body()).doesNotContain(token);
            }
        }
    }

    @Test
    void attackWhenPayloadTamperedThenBadSignature() {
        String token = client.user("txn-token", "mint", client.userToken("user0072"), null)
                .json()
                .get("token")
                .asString();
        assertRefused(withPayloadCharChanged(token, 14), "BAD_SIGNATURE");
    }

    @Test
    void attackWhenForeignKeyUnderTheServiceKidThenBadSignature() throws Exception {
        assertRefused(sign(header(), claims("user0073"), foreignKey().getPrivate()), "BAD_SIGNATURE");
    }

    @Test
    void attackWhenUnknownKeyThenUntrustedKey() throws Exception {
        KeyPair foreign = foreignKey();
        Map<String, Object> h = header();
        h.put("kid", TxnTokenKeys.thumbprint(foreign.getPublic()));
        assertRefused(sign(h, claims("user0073"), foreign.getPrivate()), "UNTRUSTED_KEY");
    }

    @Test
    void attackWhenAnotherTypeThenUnsupported() {
        Map<String, Object> h = header();
        h.put("typ", "JWT");
        assertRefused(sign(h, claims("user0074"), serviceKey), "UNSUPPORTED");
        // a DVID of the same user is no Txn-Token either
        String dvid = client.user("dvid", "mint", client.userToken("user0074"), null)
                .json()
                .get("token")
                .asString();
        assertRefused(dvid, "UNSUPPORTED");
    }

    @Test
    void attackWhenAudienceIsAnotherTrustDomainThenWrongAudience() {
        Map<String, Object> c = claims("user0075");
        c.put("aud", "other.example");
        assertRefused(sign(header(), c, serviceKey), "WRONG_AUDIENCE");
    }

    @Test
    void attackWhenExpiredThenExpired() {
        Map<String, Object> c = claims("user0076");
        c.put("iat", Instant.now().getEpochSecond() - 600);
        c.put("exp", Instant.now().getEpochSecond() - 300);
        assertRefused(sign(header(), c, serviceKey), "EXPIRED");
    }

    @Test
    void attackWhenIssuedInTheFutureThenNotYetValid() {
        Map<String, Object> c = claims("user0076");
        c.put("iat", Instant.now().getEpochSecond() + 600);
        c.put("exp", Instant.now().getEpochSecond() + 900);
        assertRefused(sign(header(), c, serviceKey), "NOT_YET_VALID");
    }

    @Test
    void attackWhenTransactionIdOrSubjectMissingThenMalformed() {
        for (String claim : List.of("txn", "sub")) {
            Map<String, Object> c = claims("user0077");
            c.remove(claim);
            assertRefused(sign(header(), c, serviceKey), "MALFORMED");
        }
    }

    @Test
    void attackWhenIssuerIsNotTheServiceThenUntrustedKey() {
        Map<String, Object> c = claims("user0077");
        c.put("iss", client.idOf("m-tier").toString());
        assertRefused(sign(header(), c, serviceKey), "UNTRUSTED_KEY");
    }

    /** Over Tomcat's request-header limit (8 KB): refused by the server before the hop, the same code. */
    @Test
    void attackWhenOversizedThenLimitExceeded() {
        Map<String, Object> c = claims("user0078");
        c.put("tctx", Map.of("dpa", "http://127.0.0.1:9000", "padding", "x".repeat(20_000)));
        assertRefused(sign(header(), c, serviceKey), "LIMIT_EXCEEDED");
    }

    // ---- the Txn-Token Service ---------------------------------------------------------------

    private static String form(String subjectToken, String subjectTokenType, String audience, String scope) {
        return "grant_type=" + enc(GRANT) + "&requested_token_type=" + enc(TXN_TYPE) + "&audience=" + enc(audience)
                + "&scope=" + enc(scope) + "&subject_token=" + enc(subjectToken) + "&subject_token_type="
                + enc(subjectTokenType);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static Answer exchange(String as, String form) {
        return client.asWorkloadForm(as, "asserting-wl", "/txn-token/token", form);
    }

    /**
     * Parameters in the URL, where access logs keep them: refused even when the body holds the rest,
     * or all of it again (RFC 8693 section 2.1 takes the body).
     */
    @Test
    void serviceWhenParametersInTheQueryStringThenRefusedMalformed() {
        String token = client.userToken("user0086");
        String full = form(token, ACCESS_TYPE, trustDomain(), "account");
        String withoutToken = "grant_type=" + enc(GRANT) + "&requested_token_type=" + enc(TXN_TYPE) + "&audience="
                + enc(trustDomain()) + "&scope=account&subject_token_type=" + enc(ACCESS_TYPE);
        for (String[] call : new String[][] {
            {"/txn-token/token?" + full, ""},
            {"/txn-token/token?subject_token=" + enc(token), withoutToken},
            {"/txn-token/token?" + full, full},
            {"/txn-token/token?x=1", full}
        }) {
            Answer a = client.asWorkloadForm("subject-wl", "asserting-wl", call[0], call[1]);
            assertThat(a.status()).as(a.body()).isEqualTo(400);
            assertThat(a.json().get("code").asString()).as(a.body()).isEqualTo("MALFORMED");
            assertThat(a.body()).doesNotContain(token).doesNotContain("access_token");
        }
        // the same form in the body alone is served
        assertThat(exchange("subject-wl", full).status()).isEqualTo(200);
    }

    @Test
    void serviceWhenSubjectWorkloadExchangesTheAccessTokenThenTxnToken() {
        Answer ok = exchange("subject-wl", form(client.userToken("user0079"), ACCESS_TYPE, trustDomain(), "account"));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("issued_token_type").asString()).isEqualTo(TXN_TYPE);
    }

    @Test
    void serviceWhenAnotherWorkloadAsksThenRefused() {
        String access = client.userToken("user0079");
        // an unknown workload, the middle tier with an access token, the target at all
        assertThat(exchange("intruder", form(access, ACCESS_TYPE, trustDomain(), "account"))
                        .status())
                .isEqualTo(403);
        assertThat(exchange("m-tier", form(access, ACCESS_TYPE, trustDomain(), "account"))
                        .status())
                .isEqualTo(403);
        assertThat(exchange("target-wl", form(access, ACCESS_TYPE, trustDomain(), "account"))
                        .status())
                .isEqualTo(403);
        // the subject workload may not ask for replacements
        String txn = sign(header(), claims("user0079"), serviceKey);
        assertThat(exchange("subject-wl", form(txn, TXN_TYPE, trustDomain(), "account"))
                        .status())
                .isEqualTo(403);
    }

    @Test
    void serviceWhenRequestBreaksTheProfileThenCode() {
        String access = client.userToken("user0080");
        assertCode(exchange("subject-wl", form(access, ACCESS_TYPE, "other.example", "account")), "WRONG_AUDIENCE");
        assertCode(
                exchange("subject-wl", form(access, ACCESS_TYPE, trustDomain(), "account admin")),
                "DELEGATION_INVALID");
        assertCode(
                exchange(
                        "subject-wl",
                        form(access, "urn:ietf:params:oauth:token-type:refresh_token", trustDomain(), "account")),
                "UNSUPPORTED");
        assertCode(
                exchange(
                        "subject-wl",
                        form(access, ACCESS_TYPE, trustDomain(), "account").replace(enc(GRANT), "client_credentials")),
                "UNSUPPORTED");
        assertCode(
                exchange("subject-wl", form(access, ACCESS_TYPE, trustDomain(), "account") + "&scope=account"),
                "MALFORMED");
        assertCode(exchange("subject-wl", form("not-a-token", ACCESS_TYPE, trustDomain(), "account")), "MALFORMED");
    }

    @Test
    void serviceWhenReplacingAnExpiredOrForeignTokenThenRefused() throws Exception {
        Map<String, Object> c = claims("user0080");
        c.put("iat", Instant.now().getEpochSecond() - 600);
        c.put("exp", Instant.now().getEpochSecond() - 300);
        assertCode(
                exchange("m-tier", form(sign(header(), c, serviceKey), TXN_TYPE, trustDomain(), "account")), "EXPIRED");
        assertCode(
                exchange(
                        "m-tier",
                        form(
                                sign(header(), claims("user0080"), foreignKey().getPrivate()),
                                TXN_TYPE,
                                trustDomain(),
                                "account")),
                "BAD_SIGNATURE");
    }

    private static void assertCode(Answer answer, String code) {
        assertThat(answer.status()).as(answer.body()).isBetween(400, 499);
        assertThat(answer.json().get("code").asString()).as(answer.body()).isEqualTo(code);
    }
}
