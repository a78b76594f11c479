package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.JSONObjectUtils;
import io.spiffeidt.asserting.wimse.WitIssuerKey;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.wimse.WimseHeaders;
import io.spiffeidt.core.wimse.WimseSettings;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.core.wimse.WitKeys;
import io.spiffeidt.core.wimse.WptSigner;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every attack of docs/formats/wimse.md §6 through the running stack, at the middle tier and at the
 * target, each refused with its code and never a 500: WITs and WPTs made here with this trust
 * domain's WIT issuer key (as a stolen key or a faulty issuer would sign them, so that the rule under
 * test is the one that refuses), with the workload keys this test holds, and sent over SPIFFE mTLS
 * as the workload each tier expects.
 */
class WimseAttackIT extends EmbeddedStackIT {

    private static final Provider PROVIDER = Security.getProvider("SunEC");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The two calls a wimse request travels on: subject-wl to m-tier, m-tier to target-wl. */
    private static final String[][] HOPS = {{"subject-wl", "m-tier"}, {"m-tier", "target-wl"}};

    private static WitIssuerKey issuerKey;

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
        issuerKey = stack.context("asserting-wl").getBean(WitIssuerKey.class);
    }

    private static SpiffeId id(String workload) {
        return SpiffeId.parse(client.idOf(workload).toString());
    }

    private static WimseSettings settings(Clock clock) {
        return WimseSettings.defaults(id("asserting-wl"), clock);
    }

    private static WitIssuer issuer(WimseSettings settings) {
        return new WitIssuer(issuerKey.privateKey(), issuerKey.publicKey(), PROVIDER, settings, RANDOM);
    }

    private static KeyPair newKey() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
        gen.initialize(new ECGenParameterSpec("secp256r1"));
        return gen.generateKeyPair();
    }

    private static String txnToken(String user) {
        return client.user("txn-token", "mint", client.userToken(user), null)
                .json()
                .get("token")
                .asString();
    }

    private static URI target(String workload, String path) {
        return stack.mtlsUrl(workload).resolve(path);
    }

    private static String wpt(KeyPair key, String wit, String method, URI target, String txnToken) {
        return new WptSigner(key.getPrivate(), key.getPublic(), PROVIDER, settings(Clock.systemUTC()), RANDOM)
                .sign(wit, method, target, txnToken)
                .token();
    }

    /** {@code POST path} at {@code call[1]} as {@code call[0]} with the three headers ({@code null}: left out). */
    private static Answer present(String[] call, String path, String wit, String wpt, String txnToken) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (wit != null) {
            headers.put(WimseHeaders.WORKLOAD_IDENTITY_TOKEN, List.of(wit));
        }
        if (wpt != null) {
            headers.put(WimseHeaders.AUTHORIZATION, List.of(WimseHeaders.authorization(wpt)));
        }
        if (txnToken != null) {
            headers.put(WimseHeaders.TXN_TOKEN, List.of(txnToken));
        }
        return client.asWorkloadRepeating(call[0], call[1], path, "{}", headers);
    }

    /** A sender's request as it should be: its own WIT and key, a WPT for this very call. */
    private record Sender(KeyPair key, String wit) {

        static Sender of(String workload) throws Exception {
            KeyPair key = newKey();
            return new Sender(
                    key,
                    issuer(settings(Clock.systemUTC()))
                            .issue(id(workload), key.getPublic())
                            .token());
        }

        Answer balance(String[] call, String txnToken) {
            URI uri = target(call[1], "/wimse/balance");
            return present(call, "/wimse/balance", wit, wpt(key, wit, "POST", uri, txnToken), txnToken);
        }
    }

    private static void assertRefused(Answer a, String where, String code, int status, String... secrets) {
        assertThat(a.status()).as(where + ": " + a.body()).isEqualTo(status);
        assertThat(a.json().get("code").asString()).as(where + ": " + a.body()).isEqualTo(code);
        for (String secret : secrets) {
            assertThat(a.body()).doesNotContain(secret);
        }
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

    private static Map<String, Object> witHeader() {
        Map<String, Object> h = new TreeMap<>();
        h.put("alg", "ES256");
        h.put("kid", WitKeys.thumbprint(issuerKey.publicKey()));
        h.put("typ", "wit+jwt");
        return h;
    }

    private static Map<String, Object> witClaims(String workload, KeyPair key) {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> c = new TreeMap<>();
        c.put("cnf", Map.of("jwk", Map.of("alg", "ES256", "crv", "P-256", "kty", "EC", "x", x(key), "y", y(key))));
        c.put("exp", now + 600);
        c.put("iat", now);
        c.put("iss", id("asserting-wl").toString());
        c.put("jti", "attack-" + now);
        c.put("sub", id(workload).toString());
        return c;
    }

    private static String x(KeyPair key) {
        return new com.nimbusds.jose.jwk.ECKey.Builder(
                        com.nimbusds.jose.jwk.Curve.P_256, (java.security.interfaces.ECPublicKey) key.getPublic())
                .build()
                .getX()
                .toString();
    }

    private static String y(KeyPair key) {
        return new com.nimbusds.jose.jwk.ECKey.Builder(
                        com.nimbusds.jose.jwk.Curve.P_256, (java.security.interfaces.ECPublicKey) key.getPublic())
                .build()
                .getY()
                .toString();
    }

    private static String unsigned(Map<String, Object> header, Map<String, Object> claims) {
        return Base64URL.encode(JSONObjectUtils.toJSONString(header).getBytes(StandardCharsets.UTF_8)) + "."
                + Base64URL.encode(JSONObjectUtils.toJSONString(claims).getBytes(StandardCharsets.UTF_8)) + ".";
    }

    @Test
    void attackWhenMadeByTheRulesThenAcceptedAtBothTiers() throws Exception {
        // the control: the same signing path, nothing broken, is served at both tiers
        String txn = txnToken("user0041");
        for (String[] call : HOPS) {
            Answer ok = Sender.of(call[0]).balance(call, txn);
            assertThat(ok.status()).as(call[1] + ": " + ok.body()).isEqualTo(200);
            assertThat(ok.json().get("user").asString()).isEqualTo("user0041");
        }
    }

    @Test
    void attackWhenTheSameWptAgainThenReplayed() throws Exception {
        String txn = txnToken("user0042");
        for (String[] call : HOPS) {
            Sender sender = Sender.of(call[0]);
            URI uri = target(call[1], "/wimse/balance");
            String wpt = wpt(sender.key(), sender.wit(), "POST", uri, txn);

            Answer first = present(call, "/wimse/balance", sender.wit(), wpt, txn);
            Answer again = present(call, "/wimse/balance", sender.wit(), wpt, txn);

            assertThat(first.status()).as(call[1] + ": " + first.body()).isEqualTo(200);
            assertRefused(again, call[1], "REPLAYED", 401, wpt, sender.wit());
        }
    }

    @Test
    void attackWhenWptForAnotherUriOrMethodThenWrongAudience() throws Exception {
        String txn = txnToken("user0043");
        for (String[] call : HOPS) {
            Sender sender = Sender.of(call[0]);
            String other = call[1].equals("m-tier") ? "target-wl" : "m-tier";
            for (String wpt : List.of(
                    wpt(sender.key(), sender.wit(), "POST", target(call[1], "/wimse/deposit"), txn),
                    wpt(sender.key(), sender.wit(), "POST", target(other, "/wimse/balance"), txn),
                    wpt(sender.key(), sender.wit(), "GET", target(call[1], "/wimse/balance"), txn))) {
                Answer a = present(call, "/wimse/balance", sender.wit(), wpt, txn);
                assertRefused(a, call[1], "WRONG_AUDIENCE", 403, wpt);
            }
        }
    }

    @Test
    void attackWhenWptSignedWithAnotherKeyThenBadSignature() throws Exception {
        String txn = txnToken("user0044");
        KeyPair thief = newKey();
        for (String[] call : HOPS) {
            Sender sender = Sender.of(call[0]);
            String wpt = wpt(thief, sender.wit(), "POST", target(call[1], "/wimse/balance"), txn);
            assertRefused(present(call, "/wimse/balance", sender.wit(), wpt, txn), call[1], "BAD_SIGNATURE", 401, wpt);
        }
    }

    @Test
    void attackWhenWitFromAnotherTrustDomainThenUntrustedKey() throws Exception {
        String txn = txnToken("user0045");
        for (String[] call : HOPS) {
            KeyPair key = newKey();
            // another trust domain's issuer, naming this workload's path there
            KeyPair foreignIssuer = newKey();
            SpiffeId foreignId = SpiffeId.parse("spiffe://other.example/" + call[0]);
            String foreign = new WitIssuer(
                            foreignIssuer.getPrivate(),
                            foreignIssuer.getPublic(),
                            PROVIDER,
                            WimseSettings.defaults(
                                    SpiffeId.parse("spiffe://other.example/asserting-wl"), Clock.systemUTC()),
                            RANDOM)
                    .issue(foreignId, key.getPublic())
                    .token();
            // this trust domain's issuer key, for a workload of another trust domain
            String crossed = issuer(settings(Clock.systemUTC()).withTrustDomain("other.example"))
                    .issue(foreignId, key.getPublic())
                    .token();
            for (String wit : List.of(foreign, crossed)) {
                String wpt = wpt(key, wit, "POST", target(call[1], "/wimse/balance"), txn);
                assertRefused(present(call, "/wimse/balance", wit, wpt, txn), call[1], "UNTRUSTED_KEY", 401, wit);
            }
        }
    }

    @Test
    void attackWhenWitExpiredThenExpired() throws Exception {
        String txn = txnToken("user0046");
        Clock past = Clock.fixed(Instant.now().minus(Duration.ofHours(3)), java.time.ZoneOffset.UTC);
        for (String[] call : HOPS) {
            KeyPair key = newKey();
            String wit =
                    issuer(settings(past)).issue(id(call[0]), key.getPublic()).token();
            String wpt = wpt(key, wit, "POST", target(call[1], "/wimse/balance"), txn);
            assertRefused(present(call, "/wimse/balance", wit, wpt, txn), call[1], "EXPIRED", 401, wit);
        }
    }

    @Test
    void attackWhenTthNamesAnotherTxnTokenThenDelegationInvalid() throws Exception {
        String presented = txnToken("user0047");
        String other = txnToken("user0048");
        for (String[] call : HOPS) {
            Sender sender = Sender.of(call[0]);
            String wpt = wpt(sender.key(), sender.wit(), "POST", target(call[1], "/wimse/balance"), other);
            assertRefused(
                    present(call, "/wimse/balance", sender.wit(), wpt, presented),
                    call[1],
                    "DELEGATION_INVALID",
                    403,
                    wpt,
                    presented);
        }
    }

    @Test
    void attackWhenWitWithoutCnfThenMalformed() throws Exception {
        String txn = txnToken("user0049");
        for (String[] call : HOPS) {
            KeyPair key = newKey();
            Map<String, Object> claims = witClaims(call[0], key);
            claims.remove("cnf");
            String wit = sign(witHeader(), claims, issuerKey.privateKey());
            String wpt = wpt(key, wit, "POST", target(call[1], "/wimse/balance"), txn);
            assertRefused(present(call, "/wimse/balance", wit, wpt, txn), call[1], "MALFORMED", 401, wit);
        }
    }

    @Test
    void attackWhenAlgNoneOnTheWitOrTheWptThenUnsupported() throws Exception {
        String txn = txnToken("user0050");
        for (String[] call : HOPS) {
            KeyPair key = newKey();
            Map<String, Object> none = witHeader();
            none.put("alg", "none");
            String noneWit = unsigned(none, witClaims(call[0], key));
            String wpt = wpt(key, noneWit, "POST", target(call[1], "/wimse/balance"), txn);
            assertRefused(present(call, "/wimse/balance", noneWit, wpt, txn), call[1], "UNSUPPORTED", 401, noneWit);

            Sender sender = Sender.of(call[0]);
            long now = Instant.now().getEpochSecond();
            Map<String, Object> wptClaims = new TreeMap<>();
            wptClaims.put("aud", target(call[1], "/wimse/balance").toString());
            wptClaims.put("exp", now + 30);
            wptClaims.put("htm", "POST");
            wptClaims.put("jti", "none-" + now);
            wptClaims.put("wth", io.spiffeidt.core.wimse.TokenHash.of(sender.wit()));
            wptClaims.put("tth", io.spiffeidt.core.wimse.TokenHash.of(txn));
            String noneWpt = unsigned(Map.of("alg", "none", "typ", "wpt+jwt"), wptClaims);
            assertRefused(
                    present(call, "/wimse/balance", sender.wit(), noneWpt, txn), call[1], "UNSUPPORTED", 401, noneWpt);
        }
    }

    @Test
    void attackWhenOversizedWitOrWptThenLimitExceeded() throws Exception {
        String txn = txnToken("user0051");
        for (String[] call : HOPS) {
            KeyPair key = newKey();
            Map<String, Object> claims = witClaims(call[0], key);
            claims.put("padding", "x".repeat(12_000));
            String wit = sign(witHeader(), claims, issuerKey.privateKey());
            String wpt = wpt(key, wit, "POST", target(call[1], "/wimse/balance"), txn);
            assertOversized(present(call, "/wimse/balance", wit, wpt, txn), call[1], wit);

            // a WPT the sender's own key signed, padded past the limit
            Sender sender = Sender.of(call[0]);
            long now = Instant.now().getEpochSecond();
            Map<String, Object> wptClaims = new TreeMap<>();
            wptClaims.put("aud", target(call[1], "/wimse/balance").toString());
            wptClaims.put("exp", now + 30);
            wptClaims.put("htm", "POST");
            wptClaims.put("jti", "oversized-" + now);
            wptClaims.put("padding", "x".repeat(12_000));
            wptClaims.put("tth", io.spiffeidt.core.wimse.TokenHash.of(txn));
            wptClaims.put("wth", io.spiffeidt.core.wimse.TokenHash.of(sender.wit()));
            String bigWpt = sign(
                    Map.of("alg", "ES256", "typ", "wpt+jwt"),
                    wptClaims,
                    sender.key().getPrivate());
            assertOversized(present(call, "/wimse/balance", sender.wit(), bigWpt, txn), call[1], bigWpt);
        }
    }

    private static void assertOversized(Answer a, String where, String token) {
        assertThat(a.status()).as(where + ": " + a.body()).isBetween(400, 499);
        assertThat(a.json().get("code").asString()).as(a.body()).isEqualTo("LIMIT_EXCEEDED");
        assertThat(a.body()).doesNotContain(token);
    }

    @Test
    void attackWhenAnotherWorkloadsWitAndWptThenWrongPresenter() throws Exception {
        // m-tier presents to the target what subject-wl signed: a WIT is not to be passed on
        String txn = txnToken("user0052");
        Sender subject = Sender.of("subject-wl");
        String wpt = wpt(subject.key(), subject.wit(), "POST", target("target-wl", "/wimse/balance"), txn);

        Answer a = present(HOPS[1], "/wimse/balance", subject.wit(), wpt, txn);

        assertRefused(a, "target-wl", "WRONG_PRESENTER", 403, wpt);
    }

    @Test
    void headersWhenMissingOrRepeatedOrAnotherSchemeThenMalformed() throws Exception {
        String txn = txnToken("user0053");
        for (String[] call : HOPS) {
            Sender sender = Sender.of(call[0]);
            String wpt = wpt(sender.key(), sender.wit(), "POST", target(call[1], "/wimse/balance"), txn);
            assertRefused(present(call, "/wimse/balance", null, wpt, txn), call[1], "MALFORMED", 400);
            assertRefused(present(call, "/wimse/balance", sender.wit(), null, txn), call[1], "MALFORMED", 400);
            assertRefused(present(call, "/wimse/balance", sender.wit(), wpt, null), call[1], "MALFORMED", 400);
            Answer bearer = client.asWorkloadRepeating(
                    call[0],
                    call[1],
                    "/wimse/balance",
                    "{}",
                    Map.of(
                            WimseHeaders.WORKLOAD_IDENTITY_TOKEN, List.of(sender.wit()),
                            WimseHeaders.AUTHORIZATION, List.of("Bearer " + wpt),
                            WimseHeaders.TXN_TOKEN, List.of(txn)));
            assertRefused(bearer, call[1], "MALFORMED", 400, wpt);
            Answer twice = client.asWorkloadRepeating(
                    call[0],
                    call[1],
                    "/wimse/balance",
                    "{}",
                    Map.of(
                            WimseHeaders.WORKLOAD_IDENTITY_TOKEN, List.of(sender.wit(), sender.wit()),
                            WimseHeaders.AUTHORIZATION, List.of(WimseHeaders.authorization(wpt)),
                            WimseHeaders.TXN_TOKEN, List.of(txn)));
            assertRefused(twice, call[1], "MALFORMED", 400, wpt);
        }
    }
}
