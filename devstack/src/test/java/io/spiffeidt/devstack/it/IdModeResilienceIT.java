package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.testkit.Await;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ID-Mode when things change under a running system: the presenting workloads rotate their SVIDs
 * (the next hop binds the presenter by key, so the key a layer is signed with must be the key of
 * the connection it travels on), and, with the target's introspection switched off ({@code
 * spiffeidt.id-mode.introspect: false}), the asserting workload goes away: documents already
 * minted keep serving, since nothing after the mint calls it.
 */
class IdModeResilienceIT extends EmbeddedStackIT {

    private static final String MODE = "id-mode";

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral()
                .withWorkloadProperty("target-wl", "spiffeidt.id-mode.introspect", "false"));
    }

    @Test
    void flowWhenPresentersRotateSvidsThenKeepsServing() throws Exception {
        String token = client.userToken("user0061");
        assertThat(client.user(MODE, "deposit", token, "{\"amount\":5}").status())
                .isEqualTo(200);

        X509Certificate before = client.serverLeaf("m-tier");
        stack.workloadApi().rotate("subject-wl");
        stack.workloadApi().rotate("m-tier");
        X509Certificate expected = stack.workloadApi().current("m-tier").leaf();
        X509Certificate seen = Await.until(
                () -> client.serverLeaf("m-tier"), expected::equals, Duration.ofSeconds(20), Duration.ofMillis(100));
        assertThat(seen).as("m-tier has the rotated SVID").isEqualTo(expected);

        for (int i = 0; i < 5; i++) {
            Answer d = client.user(MODE, "deposit", token, "{\"amount\":1}");
            assertThat(d.status()).as(d.body()).isEqualTo(200);
        }
        Answer balance = client.user(MODE, "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("balance").asLong()).isEqualTo(10);
    }

    @Test
    void targetWhenIntrospectionOffAndAssertingStoppedThenKeptDocumentsServeAndMintRecovers() {
        String token = client.userToken("user0062");
        assertThat(client.user(MODE, "mint", token, null).status()).isEqualTo(200);

        stack.stop("asserting-wl");
        Answer offline = client.user(MODE, "deposit", token, "{\"amount\":7}");
        assertThat(offline.status()).as(offline.body()).isEqualTo(200);
        assertThat(offline.json().get("minted").asBoolean()).isFalse();
        assertThat(offline.json().get("balance").asLong()).isEqualTo(7);
        Answer mint = client.user(MODE, "mint", token, null);
        assertThat(mint.status()).as(mint.body()).isIn(502, 503);
        assertThat(mint.json().get("code").asString()).isEqualTo("UPSTREAM_UNAVAILABLE");

        stack.restart("asserting-wl");
        Answer again = client.user(MODE, "mint", token, null);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(client.user(MODE, "balance", token, null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(7);
        assertThat(client.prometheus("target-wl").body())
                .doesNotContainPattern(
                        "operation=\"introspect_call\"[^\\n]*mode=\"id-mode\"|mode=\"id-mode\"[^\\n]*operation=\"introspect_call\"");
    }
}
