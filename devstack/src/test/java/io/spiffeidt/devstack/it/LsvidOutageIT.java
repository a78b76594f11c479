package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LSVID is verified offline: once the document is minted, the middle tier and the target answer
 * with the asserting workload stopped (docs/design.md, LSVID row: "no call to asserting"). Only a new
 * mint needs it.
 */
class LsvidOutageIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Test
    void targetWhenAssertingStoppedAfterMintingThenAnswersWithoutIt() {
        String token = client.userToken("user0071");
        Answer minted = client.user("lsvid", "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        assertThat(client.user("lsvid", "deposit", token, "{\"amount\":4}").status())
                .isEqualTo(200);

        stack.stop("asserting-wl");
        Answer balance = client.user("lsvid", "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("user").asString()).isEqualTo("user0071");
        assertThat(balance.json().get("balance").asLong()).isEqualTo(4);
        assertThat(balance.json().get("minted").asBoolean()).isFalse();
        Answer deposit = client.user("lsvid", "deposit", token, "{\"amount\":5}");
        assertThat(deposit.status()).as(deposit.body()).isEqualTo(200);
        assertThat(deposit.json().get("balance").asLong()).isEqualTo(9);
        assertThat(deposit.json().get("path").toString()).contains("asserting-wl", "m-tier");

        // the target made no outbound call at all, the middle tier none to the asserting workload
        assertThat(clientRequestLines("target-wl")).isEmpty();
        assertThat(clientRequestLines("m-tier")).noneMatch(l -> l.contains("asserting"));

        // a new document needs the asserting workload
        Answer mintDown = client.user("lsvid", "mint", client.userToken("user0072"), null);
        assertThat(mintDown.status()).as(mintDown.body()).isIn(502, 503);
        assertThat(mintDown.json().get("code").asString()).isEqualTo("UPSTREAM_UNAVAILABLE");

        stack.restart("asserting-wl");
        Answer again = client.user("lsvid", "mint", client.userToken("user0072"), null);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(client.user("lsvid", "balance", token, null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(9);
    }

    private static List<String> clientRequestLines(String workload) {
        return client.prometheus(workload)
                .body()
                .lines()
                .filter(l -> l.startsWith("http_client_requests"))
                .toList();
    }
}
