package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStack;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The DVID flow under each pooling profile, with the strategy visible in the metrics. */
class PoolingProfilesIT {

    @ParameterizedTest
    @ValueSource(strings = {"thesis", "pooled", "non-pooled", "fresh-source"})
    void flowWhenProfileThenWorksAndStrategyIsMeasured(String profile) {
        try (DevStack stack =
                DevStack.start(DevStackSettings.ephemeral().withProperty("spiffeidt.pooling.profile", profile))) {
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
            switch (profile) {
                case "fresh-source" ->
                    assertThat(freshSetup).as("fresh source per request").isTrue();
                // Table 7: under the thesis profile m-tier pools every DVID downstream
                case "pooled", "non-pooled", "thesis" -> assertThat(freshSetup).isFalse();
                default -> throw new IllegalArgumentException(profile);
            }
        }
    }
}
