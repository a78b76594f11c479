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
 * development IdP: the shared flow contract ({@link ModeFlowContractIT}), attacks at the middle tier,
 * the allow-lists, metrics.
 */
class DvidFlowIT extends ModeFlowContractIT {

    @BeforeAll
    static void start() {
        // the thesis reproduction: the default pooling profile, no memo
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.memo.enabled", "false"));
    }

    @Override
    String mode() {
        return "dvid";
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        assertThat(mint.get("claims").get("sub").asString()).isEqualTo(id("subject-wl"));
        assertThat(mint.get("claims").get("iss").asString()).isEqualTo(id("asserting-wl"));
        assertThat(mint.get("header").get("alg").asString()).isEqualTo("RS256");
    }

    @Override
    void assertPath(List<String> path) {
        assertThat(String.join(" ", path)).contains("asserting-wl", "subject-wl");
    }

    @Override
    List<String> modeGarbage() {
        return List.of("{\"token\":\"a.b.c\"}");
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
