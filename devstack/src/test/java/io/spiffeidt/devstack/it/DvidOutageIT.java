package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The asserting workload goes away and comes back: the middle tier answers 502/503, then recovers. */
class DvidOutageIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Test
    void middleTierWhenAssertingStoppedThenUpstreamUnavailableAndRecovers() {
        String token = client.userToken("user0031");
        String dvid =
                client.user("dvid", "mint", token, null).json().get("token").asString();
        String body = "{\"token\":" + SystemClient.quote(dvid) + "}";
        assertThat(client.asWorkload("subject-wl", "m-tier", "/dvid/balance", body)
                        .status())
                .isEqualTo(200);

        stack.stop("asserting-wl");
        Answer down = client.asWorkload("subject-wl", "m-tier", "/dvid/balance", body);
        assertThat(down.status()).as(down.body()).isIn(502, 503);
        assertThat(down.json().get("code").asString()).isEqualTo("UPSTREAM_UNAVAILABLE");
        Answer userDown = client.user("dvid", "balance", token, null);
        assertThat(userDown.status()).isIn(502, 503);

        stack.restart("asserting-wl");
        // a fresh DVID from the restarted asserting workload works at once
        Answer minted = client.user("dvid", "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        Answer balance = client.user("dvid", "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("user").asString()).isEqualTo("user0031");
    }
}
