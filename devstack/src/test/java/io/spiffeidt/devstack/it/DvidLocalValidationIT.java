package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Under the {@code pooled} profile target-wl verifies a DVID itself, with the asserting workload's
 * keys it fetched once (docs/formats/dvid.md §6, "Where a DVID is verified"); m-tier still asks the
 * asserting workload. The last test stops the asserting workload.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DvidLocalValidationIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.pooling.profile", "pooled"));
    }

    private static String body(String dvid) {
        return "{\"token\":" + SystemClient.quote(dvid) + "}";
    }

    private static String mint(String user) {
        String token = client.userToken(user);
        return client.user("dvid", "mint", token, null).json().get("token").asString();
    }

    @Test
    @Order(1)
    void balanceWhenPooledThenTargetVerifiesWithoutAPerRequestCall() {
        String token = client.userToken("user0061");
        for (int i = 0; i < 3; i++) {
            Answer balance = client.user("dvid", "balance", token, null);
            assertThat(balance.status()).as(balance.body()).isEqualTo(200);
            assertThat(balance.json().get("user").asString()).isEqualTo("user0061");
        }

        String target = client.prometheus("target-wl").body();
        assertThat(SystemClient.sum(
                        target, "spiffeidt_operation_seconds_count", "mode=\"dvid\"", "operation=\"validate\""))
                .isGreaterThanOrEqualTo(3);
        assertThat(SystemClient.sum(
                        target, "spiffeidt_operation_seconds_count", "mode=\"dvid\"", "operation=\"validate_call\""))
                .isZero();
        assertThat(SystemClient.sum(target, "http_client_requests_seconds_count", "uri=\"/dvid/keys\""))
                .as("one fetch of the keys serves every request")
                .isEqualTo(1);
        assertThat(SystemClient.sum(
                        client.prometheus("m-tier").body(),
                        "spiffeidt_operation_seconds_count",
                        "mode=\"dvid\"",
                        "operation=\"validate_call\""))
                .isGreaterThanOrEqualTo(3);
    }

    @Test
    @Order(2)
    void targetWhenForgedDvidThenRefusedAndKeepsServing() {
        String dvid = mint("user0062");
        String[] parts = dvid.split("\\.");
        String tampered = withPayloadCharChanged(dvid, 10);
        String unknownKey = Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                "{\"alg\":\"RS256\",\"kid\":\"nope\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + parts[1] + "." + parts[2];

        Answer forged = client.asWorkload("m-tier", "target-wl", "/dvid/balance", body(tampered));
        assertThat(forged.status()).as(forged.body()).isEqualTo(401);
        assertThat(forged.json().get("code").asString()).isIn("BAD_SIGNATURE", "MALFORMED");
        assertThat(forged.body()).doesNotContain(parts[1]);
        Answer unknown = client.asWorkload("m-tier", "target-wl", "/dvid/balance", body(unknownKey));
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(401);
        assertThat(unknown.json().get("code").asString()).isEqualTo("UNTRUSTED_KEY");

        for (String garbage :
                List.of("", "{}", "not json", "{\"token\":\"\"}", "{\"token\":\"a.b.c\"}", "[1,2]", HUGE_TOKEN_BODY)) {
            Answer refused = client.asWorkload("m-tier", "target-wl", "/dvid/balance", garbage);
            assertThat(refused.status()).as(refused.body()).isBetween(400, 499);
            assertThat(refused.json().get("code").asString()).isNotBlank();
        }

        Answer ok = client.asWorkload("m-tier", "target-wl", "/dvid/balance", body(dvid));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("user").asString()).isEqualTo("user0062");
        // only m-tier may call, as before
        assertThat(client.asWorkload("subject-wl", "target-wl", "/dvid/balance", body(dvid))
                        .status())
                .isEqualTo(403);
    }

    @Test
    @Order(3)
    void targetWhenAssertingStoppedThenVerifiesWithTheKeysItHolds() {
        String dvid = mint("user0063");
        String token = client.userToken("user0063");
        stack.stop("asserting-wl");
        try {
            Answer atTarget = client.asWorkload("m-tier", "target-wl", "/dvid/balance", body(dvid));
            assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(200);
            assertThat(atTarget.json().get("user").asString()).isEqualTo("user0063");
            // the middle tier still asks the asserting workload
            Answer user = client.user("dvid", "balance", token, null);
            assertThat(user.status()).as(user.body()).isIn(502, 503);
        } finally {
            stack.restart("asserting-wl");
        }
    }
}
