package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidBaseBuilder;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidExtender;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.ca.IssuedSvid;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * LSVID through the four tiers over real SPIFFE mTLS (the development Workload API) with the
 * development IdP: the shared flow contract ({@link ModeFlowContractIT}), the bearer check by name and
 * by key (with a rotated SVID),
 * wrong audiences, a second delegation, bad input, metrics.
 *
 * <p>The test poses as a workload by holding that workload's current SVID from the development
 * Workload API: it extends documents with the workload's key and presents them over mTLS with the
 * workload's certificate, exactly as the workload itself would.
 */
class LsvidFlowIT extends ModeFlowContractIT {

    private static final TimeRules TIME = TimeRules.defaults(Clock.systemUTC());

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Override
    String mode() {
        return "lsvid";
    }

    @Override
    void assertMinted(JsonNode mint, String user, String token) {
        assertThat(mint.has("header")).isFalse();
        JsonNode claims = mint.get("claims");
        assertThat(claims.get("assertedBy").asString()).isEqualTo(id("asserting-wl"));
        assertThat(claims.get("depth").asInt()).isEqualTo(3);
        JsonNode outer = claims.get("layers").get(0);
        assertThat(outer.get("iss").asString()).isEqualTo(id("asserting-wl"));
        assertThat(outer.get("aud").asString()).isEqualTo(id("subject-wl"));
        assertThat(claims.get("layers").get(2).get("iss").asString())
                .isEqualTo("spiffe://" + client.idOf("subject-wl").trustDomain());
        assertThat(outer.get("exp").asLong())
                .isLessThanOrEqualTo(claims.get("layers").get(1).get("exp").asLong())
                .isLessThanOrEqualTo(outer.get("iat").asLong() + 120)
                .isLessThanOrEqualTo(accessTokenExpiry(token));
        Lsvid decoded = LsvidCodec.decode(mint.get("token").asString());
        assertThat(decoded.depth()).isEqualTo(3);
        assertThat(decoded.token().payload().dpr()).isEqualTo(user);
    }

    @Override
    void assertPath(List<String> path) {
        assertThat(path)
                .containsExactly(id("subject-wl"), id("asserting-wl"), id("subject-wl"), id("m-tier"), id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        return List.of("{\"token\":\"e30\"}");
    }

    @Test
    void presentWhenPeerIsNotTheOutermostIssuerThen403WrongPresenter() {
        String token = client.userToken("user0044");
        Lsvid minted = mintedFor(token);

        // m-tier: a document target-wl extended for m-tier, replayed by subject-wl (allowed to call m-tier)
        Lsvid viaTarget = extendAs("target-wl", extendAs("subject-wl", minted, "target-wl"), "m-tier");
        Answer atMTier = client.asWorkload("subject-wl", "m-tier", "/lsvid/balance", body(viaTarget));
        assertThat(atMTier.status()).as(atMTier.body()).isEqualTo(403);
        assertThat(atMTier.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        // target: a document subject-wl extended for target-wl, presented by m-tier
        Lsvid forTarget = extendAs("subject-wl", minted, "target-wl");
        Answer atTarget = client.asWorkload("m-tier", "target-wl", "/lsvid/balance", body(forTarget));
        assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(403);
        assertThat(atTarget.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        // asserting: m-tier's own request for a delegation, presented by subject-wl
        Lsvid mTierRequest = extendAs("m-tier", start("m-tier"), "asserting-wl");
        Answer atAsserting =
                client.asWorkload("subject-wl", "asserting-wl", "/lsvid/extendlsvid", extendBody(token, mTierRequest));
        assertThat(atAsserting.status()).as(atAsserting.body()).isEqualTo(403);
        assertThat(atAsserting.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        // the same minted document, extended and presented by its issuer, is accepted
        Answer genuine = client.asWorkload(
                "subject-wl", "m-tier", "/lsvid/balance", body(extendAs("subject-wl", minted, "m-tier")));
        assertThat(genuine.status()).as(genuine.body()).isEqualTo(200);
        assertThat(genuine.json().get("user").asString()).isEqualTo("user0044");
    }

    @Test
    void presentWhenCallerNotAllowedOrWrongAudienceThen403() {
        String token = client.userToken("user0045");
        Lsvid forMTier = extendAs("subject-wl", mintedFor(token), "m-tier");
        String body = body(forMTier);
        // a workload outside the allow-lists is refused before any verification
        assertThat(client.asWorkload("intruder", "m-tier", "/lsvid/balance", body)
                        .status())
                .isEqualTo(403);
        assertThat(client.asWorkload("intruder", "target-wl", "/lsvid/balance", body)
                        .status())
                .isEqualTo(403);
        assertThat(client.asWorkload(
                                "intruder",
                                "asserting-wl",
                                "/lsvid/extendlsvid",
                                extendBody(token, extendAs("subject-wl", start("subject-wl"), "asserting-wl")))
                        .status())
                .isEqualTo(403);
        // subject-wl may not skip the middle tier
        assertThat(client.asWorkload("subject-wl", "target-wl", "/lsvid/balance", body)
                        .status())
                .isEqualTo(403);
        // m-tier forwarding a document addressed to itself, unextended
        Answer unextended = client.asWorkload("m-tier", "target-wl", "/lsvid/balance", body);
        assertThat(unextended.status()).as(unextended.body()).isEqualTo(403);
        assertThat(unextended.json().get("code").asString()).isEqualTo("WRONG_AUDIENCE");
    }

    @Test
    void extendWhenDocumentAlreadyDelegatedThenDelegationInvalid() {
        String token = client.userToken("user0046");
        // subject-wl asks again with a document that already carries a delegation
        Lsvid again = extendAs("subject-wl", mintedFor(token), "asserting-wl");
        Answer a = client.asWorkload("subject-wl", "asserting-wl", "/lsvid/extendlsvid", extendBody(token, again));
        assertThat(a.status()).as(a.body()).isEqualTo(403);
        assertThat(a.json().get("code").asString()).isEqualTo("DELEGATION_INVALID");

        // a document without any delegation is refused by the middle tier
        Lsvid undelegated = extendAs("subject-wl", start("subject-wl"), "m-tier");
        Answer b = client.asWorkload("subject-wl", "m-tier", "/lsvid/balance", body(undelegated));
        assertThat(b.status()).as(b.body()).isEqualTo(403);
        assertThat(b.json().get("code").asString()).isEqualTo("DELEGATION_INVALID");
    }

    /**
     * The bearer rule of docs/formats/lsvid.md step 5 is by name and key: the peer must hold the key that
     * signed the outermost layer, a matching SPIFFE ID is not enough. A workload whose SVID rotated
     * (same SPIFFE ID, new key) can present neither a layer it signed with the old key over a
     * connection with its new certificate, nor a new layer over a connection with its old (still
     * valid) certificate: 403 WRONG_PRESENTER. It rebuilds its base from the new SVID and extends
     * again; the inner layers signed with the old key stay valid (their {@code iss.id} embeds the
     * old, still anchored certificate). Two replicas sharing one SPIFFE ID cannot present each
     * other's layers either.
     *
     * <p>The rotated workload is a second replica of subject-wl (same SPIFFE ID, its own SVID), so
     * the running services' SVIDs stay as they are; {@link LsvidRotationIT} rotates the running
     * workloads themselves.
     */
    @Test
    void presentWhenSvidRotatedThenOldLayerWrongPresenterRebuiltBaseAcceptedAndServicesKeepServing() throws Exception {
        String replica = "subject-wl-replica";
        stack.workloadApi().addWorkload(replica, client.idOf("subject-wl"));
        String token = client.userToken("user0047");
        assertThat(client.user("lsvid", "deposit", token, "{\"amount\":7}").status())
                .isEqualTo(200);
        Lsvid minted = mintedFor(token);
        IssuedSvid before = stack.workloadApi().current(replica);
        assertThat(before.id()).isEqualTo(client.idOf("subject-wl"));
        Lsvid oldLayer = extendAs(replica, minted, "m-tier");
        Answer accepted = client.asWorkload(replica, "m-tier", "/lsvid/balance", body(oldLayer));
        assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);

        // the other replica: the same SPIFFE ID, another key
        Answer otherReplica = client.asWorkload("subject-wl", "m-tier", "/lsvid/balance", body(oldLayer));
        assertThat(otherReplica.status()).as(otherReplica.body()).isEqualTo(403);
        assertThat(otherReplica.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        stack.workloadApi().rotate(replica);
        IssuedSvid after = stack.workloadApi().current(replica);
        assertThat(after.id()).isEqualTo(before.id());
        assertThat(after.leaf().getPublicKey()).isNotEqualTo(before.leaf().getPublicKey());

        // right SPIFFE ID, new certificate over TLS, layer signed with the old key
        Answer stale = client.asWorkload(replica, "m-tier", "/lsvid/balance", body(oldLayer));
        assertThat(stale.status()).as(stale.body()).isEqualTo(403);
        assertThat(stale.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");
        assertThat(stale.body()).doesNotContain(LsvidCodec.encode(oldLayer));

        // old certificate over TLS (still valid), layer signed with the new key
        Lsvid newLayer = extendAs(replica, minted, "m-tier");
        Answer oldCert = SystemClient.send(
                stack.mtlsUrl("m-tier").resolve("/lsvid/balance"),
                "POST",
                "application/json",
                body(newLayer),
                Map.of(),
                client.sslContextFor(before));
        assertThat(oldCert.status()).as(oldCert.body()).isEqualTo(403);
        assertThat(oldCert.json().get("code").asString()).isEqualTo("WRONG_PRESENTER");

        // the rebuilt base and a new layer over the new certificate: accepted, with the inner layers
        // of the minted document as they were
        Answer fresh = client.asWorkload(replica, "m-tier", "/lsvid/balance", body(newLayer));
        assertThat(fresh.status()).as(fresh.body()).isEqualTo(200);
        assertThat(fresh.json().get("balance").asLong()).isEqualTo(7);

        // the services keep serving the user
        Answer served = client.user("lsvid", "deposit", token, "{\"amount\":3}");
        assertThat(served.status()).as(served.body()).isEqualTo(200);
        assertThat(served.json().get("balance").asLong()).isEqualTo(10);
        Answer remint = client.user("lsvid", "mint", token, null);
        assertThat(remint.status()).as(remint.body()).isEqualTo(200);
    }

    @Test
    void middleTierWhenTamperedThen4xxAndKeepsServing() {
        String token = client.userToken("user0048");
        String genuine = LsvidCodec.encode(extendAs("subject-wl", mintedFor(token), "m-tier"));
        char[] chars = genuine.toCharArray();
        int at = chars.length / 2;
        chars[at] = chars[at] == 'A' ? 'B' : 'A';
        String tampered = new String(chars);
        Answer rejected = client.asWorkload(
                "subject-wl", "m-tier", "/lsvid/balance", "{\"token\":" + SystemClient.quote(tampered) + "}");
        assertThat(rejected.status()).as(rejected.body()).isBetween(400, 403);
        assertThat(rejected.body()).doesNotContain(tampered);

        Answer garbageMint = client.asWorkload(
                "subject-wl",
                "asserting-wl",
                "/lsvid/extendlsvid",
                "{\"accessToken\":" + SystemClient.quote(token) + ",\"lsvid\":\"not-an-lsvid\"}");
        assertThat(garbageMint.status()).as(garbageMint.body()).isEqualTo(400);

        Answer ok = client.asWorkload(
                "subject-wl", "m-tier", "/lsvid/balance", "{\"token\":" + SystemClient.quote(genuine) + "}");
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(client.user("lsvid", "balance", token, null).status()).isEqualTo(200);
    }

    @Test
    void metricsWhenFlowRanThenOperationTimersAndSizesPerDepth() {
        String token = client.userToken("user0049");
        assertThat(client.user("lsvid", "balance", token, null).status()).isEqualTo(200);
        String subject = client.prometheus("subject-wl").body();
        assertThat(subject)
                .contains("mode=\"lsvid\"")
                .contains("operation=\"mint_call\"")
                .contains("operation=\"extend\"");
        assertThat(subject).containsPattern(documentSize("lsvid", 2));
        assertThat(subject).containsPattern(documentSize("lsvid", 4));
        String asserting = client.prometheus("asserting-wl").body();
        assertThat(asserting).contains("operation=\"mint\"").contains("operation=\"validate\"");
        assertThat(asserting).containsPattern(documentSize("lsvid", 3));
        String mtier = client.prometheus("m-tier").body();
        assertThat(mtier)
                .contains("operation=\"validate\"")
                .contains("operation=\"extend\"")
                .contains("operation=\"target_call\"");
        assertThat(mtier).containsPattern(documentSize("lsvid", 5));
        assertThat(mtier).doesNotContainPattern(documentSize("lsvid", 4));
        String target = client.prometheus("target-wl").body();
        assertThat(target).contains("operation=\"validate\"").contains("operation=\"db_query\"");
        assertThat(lsvidLines(target)).noneMatch(l -> l.contains("_call\""));
    }

    // ---- helpers: the test holds a workload's current SVID and acts as that workload ----

    /** The user's minted document, as subject-wl received it from asserting-wl over the real flow. */
    private static Lsvid mintedFor(String token) {
        Answer minted = client.user("lsvid", "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        return LsvidCodec.decode(minted.json().get("token").asString());
    }

    private static LsvidToken base(IssuedSvid svid) {
        return new LsvidBaseBuilder(TIME, null).build(svid.chain(), svid.key());
    }

    private static Lsvid start(String workload) {
        return Lsvid.of(base(stack.workloadApi().current(workload)));
    }

    private static Lsvid extendAs(String workload, Lsvid document, String audience) {
        IssuedSvid svid = stack.workloadApi().current(workload);
        return new LsvidExtender(TIME, null).extend(document, base(svid), svid.key(), client.idOf(audience));
    }

    private static String body(Lsvid document) {
        return "{\"token\":" + SystemClient.quote(LsvidCodec.encode(document)) + "}";
    }

    private static String extendBody(String accessToken, Lsvid document) {
        return "{\"accessToken\":" + SystemClient.quote(accessToken) + ",\"lsvid\":"
                + SystemClient.quote(LsvidCodec.encode(document)) + "}";
    }

    private static long accessTokenExpiry(String accessToken) {
        String payload = new String(Base64.getUrlDecoder().decode(accessToken.split("\\.")[1]), StandardCharsets.UTF_8);
        return SystemClient.JSON.readTree(payload).get("exp").asLong();
    }

    private static List<String> lsvidLines(String scrape) {
        return scrape.lines()
                .filter(l -> !l.startsWith("#") && l.contains("mode=\"lsvid\""))
                .toList();
    }
}
