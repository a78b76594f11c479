package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * DVID through the four tiers over real SPIFFE mTLS (the development Workload API) with the
 * development IdP: the user's walk-through, attacks at the middle tier, bad input, metrics.
 */
class DvidFlowIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        // the thesis reproduction: the default pooling profile, no memo
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.memo.enabled", "false"));
    }

    @Test
    void flowWhenTwoUsersInParallelThenEachKeepsOwnBalance() throws Exception {
        twoUsersInParallel(this::walkThrough, "user0011", "user0012");
    }

    private long walkThrough(String user, long amount) {
        String token = client.userToken(user);
        Answer minted = client.user("dvid", "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        JsonNode mint = minted.json();
        assertThat(mint.get("mode").asString()).isEqualTo("dvid");
        assertThat(mint.get("claims").get("dpr").asString()).isEqualTo(user);
        assertThat(mint.get("claims").get("sub").asString())
                .isEqualTo(client.idOf("subject-wl").toString());
        assertThat(mint.get("claims").get("iss").asString())
                .isEqualTo(client.idOf("asserting-wl").toString());
        assertThat(mint.get("header").get("alg").asString()).isEqualTo("RS256");
        assertThat(mint.get("size").asInt())
                .isEqualTo(mint.get("token").asString().length());

        Answer balance = client.user("dvid", "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("user").asString()).isEqualTo(user);
        assertThat(balance.json().get("balance").asLong()).isZero();
        assertThat(balance.json().get("minted").asBoolean()).isFalse();

        for (long deposit : List.of(amount, amount, 1L)) {
            Answer d = client.user("dvid", "deposit", token, "{\"amount\":" + deposit + "}");
            assertThat(d.status()).as(d.body()).isEqualTo(200);
            assertThat(d.json().get("mode").asString()).isEqualTo("dvid");
        }
        Answer after = client.user("dvid", "balance", token, null);
        assertThat(after.json().get("user").asString()).isEqualTo(user);
        return after.json().get("balance").asLong();
    }

    @Test
    void balanceWhenNoDocumentKeptThenMintsFirstAndSaysSo() {
        String token = client.userToken("user0013");
        Answer balance = client.user("dvid", "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("minted").asBoolean()).isTrue();
        assertThat(balance.json().get("path").toString()).contains("asserting-wl", "subject-wl");
    }

    @Test
    void userWhenNoOrBadBearerThen401() {
        assertThat(client.user("dvid", "mint", null, null).status()).isEqualTo(401);
        Answer bad = client.user("dvid", "balance", "not-a-token", null);
        assertThat(bad.status()).isEqualTo(401);
        assertThat(bad.json().get("code").asString()).isEqualTo("MALFORMED");
    }

    @Test
    void depositWhenNonPositiveOrOverflowingThen400AndBalanceUnchanged() {
        String token = client.userToken("user0014");
        assertThat(client.user("dvid", "deposit", token, "{\"amount\":10}").status())
                .isEqualTo(200);
        for (String body : List.of("{\"amount\":0}", "{\"amount\":-5}", "{\"amount\":9223372036854775807}")) {
            Answer a = client.user("dvid", "deposit", token, body);
            assertThat(a.status()).as(body + " -> " + a.body()).isEqualTo(400);
        }
        assertThat(client.user("dvid", "deposit", token, "{\"amount\":\"ten\"}").status())
                .isEqualTo(400);
        assertThat(client.user("dvid", "balance", token, null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(10);
    }

    @Test
    void userApiWhenUnknownModeThen404() {
        String token = client.userToken("user0015");
        assertThat(client.user("nope", "mint", token, null).status()).isEqualTo(404);
    }

    @Test
    void middleTierWhenTamperedDvidThen401AndKeepsServing() {
        String token = client.userToken("user0016");
        String dvid =
                client.user("dvid", "mint", token, null).json().get("token").asString();
        String[] parts = dvid.split("\\.");
        String tampered = withPayloadCharChanged(dvid, 10);

        Answer rejected = client.asWorkload(
                "subject-wl", "m-tier", "/dvid/balance", "{\"token\":" + SystemClient.quote(tampered) + "}");
        assertThat(rejected.status()).as(rejected.body()).isEqualTo(401);
        assertThat(rejected.json().get("code").asString()).isIn("BAD_SIGNATURE", "MALFORMED");
        assertThat(rejected.body()).doesNotContain(parts[1]);

        Answer ok = client.asWorkload(
                "subject-wl", "m-tier", "/dvid/balance", "{\"token\":" + SystemClient.quote(dvid) + "}");
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("user").asString()).isEqualTo("user0016");
    }

    @Test
    void middleTierWhenGarbageBodiesThen4xxAndKeepsServing() {
        assertMiddleTierRejects(
                "/dvid/balance",
                List.of("", "{}", "not json", "{\"token\":\"\"}", "{\"token\":\"a.b.c\"}", "[1,2]", HUGE_TOKEN_BODY));
        String token = client.userToken("user0017");
        assertThat(client.user("dvid", "balance", token, null).status()).isEqualTo(200);
    }

    @Test
    void callWhenWrongSpiffeIdThen403() {
        String token = client.userToken("user0018");
        String dvid =
                client.user("dvid", "mint", token, null).json().get("token").asString();
        String body = "{\"token\":" + SystemClient.quote(dvid) + "}";
        Answer atMTier = client.asWorkload("intruder", "m-tier", "/dvid/balance", body);
        assertThat(atMTier.status()).isEqualTo(403);
        Answer atTarget = client.asWorkload("intruder", "target-wl", "/dvid/balance", body);
        assertThat(atTarget.status()).isEqualTo(403);
        Answer mint = client.asWorkload(
                "intruder", "asserting-wl", "/dvid/mint", "{\"accessToken\":" + SystemClient.quote(token) + "}");
        assertThat(mint.status()).isEqualTo(403);
        // the subject workload may not skip the middle tier either
        Answer skip = client.asWorkload("subject-wl", "target-wl", "/dvid/balance", body);
        assertThat(skip.status()).isEqualTo(403);
    }

    @Test
    void targetWhenDvidIssuedToAnotherWorkloadThenDelegationInvalid() {
        // m-tier itself asks for a DVID: asserting refuses (mint is for subject-wl only)
        String token = client.userToken("user0019");
        Answer mint = client.asWorkload(
                "m-tier", "asserting-wl", "/dvid/mint", "{\"accessToken\":" + SystemClient.quote(token) + "}");
        assertThat(mint.status()).isEqualTo(403);
    }

    @Test
    void metricsWhenFlowRanThenOperationTimersAtPrometheus() {
        String token = client.userToken("user0020");
        assertThat(client.user("dvid", "balance", token, null).status()).isEqualTo(200);
        String mtier = client.prometheus("m-tier").body();
        assertThat(mtier)
                .contains("spiffeidt_operation_seconds")
                .contains("operation=\"validate_call\"")
                .contains("operation=\"introspect_call\"")
                .contains("operation=\"zkp_verification\"")
                .contains("operation=\"target_call\"")
                .contains("mode=\"dvid\"");
        String asserting = client.prometheus("asserting-wl").body();
        assertThat(asserting).contains("operation=\"zkp_generation\"").contains("operation=\"mint\"");
        assertThat(asserting).contains("spiffeidt_document_size");
        // with the memos off target-wl has the asserting workload validate every DVID, as the original
        assertThat(client.prometheus("target-wl").body())
                .contains("operation=\"db_query\"")
                .contains("operation=\"validate_call\"");
    }
}
