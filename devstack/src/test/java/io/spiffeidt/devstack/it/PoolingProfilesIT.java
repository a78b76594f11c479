package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStack;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The flows under each pooling profile: DVID with the connection strategy visible in the metrics,
 * ID-Mode and LSVID with the work subject-wl keeps between uses of one document.
 */
class PoolingProfilesIT {

    @ParameterizedTest
    @ValueSource(strings = {"thesis", "pooled", "non-pooled", "fresh-source"})
    void flowWhenProfileThenWorksAndHandshakesTellPooledFromNonPooled(String profile) {
        try (DevStack stack = DevStack.start(DevStackSettings.ephemeral()
                .withProperty("spiffeidt.pooling.profile", profile)
                // the thesis reproduction remembers nothing
                .withProperty("spiffeidt.memo.enabled", Boolean.toString(!profile.equals("thesis"))))) {
            SystemClient client = new SystemClient(stack);
            String token = client.userToken("user0041");
            for (int i = 0; i < 3; i++) {
                Answer d = client.user("dvid", "deposit", token, "{\"amount\":2}");
                assertThat(d.status()).as(profile + ": " + d.body()).isEqualTo(200);
            }
            Answer balance = client.user("dvid", "balance", token, null);
            assertThat(balance.json().get("balance").asLong()).isEqualTo(6);
            String mtier = client.prometheus("m-tier").body();
            boolean freshSetup = mtier.contains("operation=\"mtls_client_setup\"");
            // four DVID requests, each one call from m-tier to target-wl: a pooled client keeps its
            // connection (fewer handshakes than requests), a non-pooled one shakes hands every time
            double handshakes = handshakes(mtier, "target-wl");
            switch (profile) {
                case "thesis", "pooled" ->
                    assertThat(handshakes)
                            .as(profile + ": handshakes to target-wl")
                            .isGreaterThanOrEqualTo(1)
                            .isLessThan(4);
                case "non-pooled", "fresh-source" ->
                    assertThat(handshakes)
                            .as(profile + ": handshakes to target-wl")
                            .isEqualTo(4);
                default -> throw new IllegalArgumentException(profile);
            }
            switch (profile) {
                case "fresh-source" ->
                    assertThat(freshSetup).as("fresh source per request").isTrue();
                // Table 7: under the thesis profile m-tier pools every DVID downstream
                case "pooled", "non-pooled", "thesis" -> assertThat(freshSetup).isFalse();
                default -> throw new IllegalArgumentException(profile);
            }

            // ID-Mode and LSVID: one document minted, then used four times. With the memos off (the
            // thesis reproduction) subject-wl verifies the kept ID-Mode root again before every use, as
            // the original did; with them on it keeps the verified root (and the decoded LSVID) with
            // the session
            for (String mode : new String[] {"id-mode", "lsvid"}) {
                for (int i = 0; i < 3; i++) {
                    Answer d = client.user(mode, "deposit", token, "{\"amount\":1}");
                    assertThat(d.status())
                            .as(profile + " " + mode + ": " + d.body())
                            .isEqualTo(200);
                }
                Answer b = client.user(mode, "balance", token, null);
                assertThat(b.status())
                        .as(profile + " " + mode + ": " + b.body())
                        .isEqualTo(200);
            }
            double validations = operations(client.prometheus("subject-wl").body(), "id-mode", "validate");
            assertThat(validations)
                    .as(profile + ": ID-Mode verifications at subject-wl for one mint and four uses")
                    .isEqualTo(profile.equals("thesis") ? 5 : 1);
        }
    }

    /** The count of {@code spiffeidt_operation_seconds} for successful {@code operation}s of {@code mode}. */
    private static double operations(String prometheus, String mode, String operation) {
        return SystemClient.sum(
                prometheus,
                "spiffeidt_operation_seconds_count",
                "mode=\"" + mode + "\"",
                "operation=\"" + operation + "\"",
                "outcome=\"success\"");
    }

    /** The sum of m-tier's {@code spiffeidt_client_handshakes_total} series towards {@code downstream}. */
    private static double handshakes(String prometheus, String downstream) {
        return SystemClient.sum(prometheus, "spiffeidt_client_handshakes_total", "downstream=\"" + downstream + "\"");
    }
}
