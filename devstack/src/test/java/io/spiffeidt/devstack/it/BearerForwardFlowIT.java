package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The bearer-forward baseline through the four tiers over real SPIFFE mTLS with the development
 * IdP: the shared flow contract ({@link ModeFlowContractIT}) with no document, the user's access
 * token forwarded unchanged and verified at m-tier and target-wl against the IdP's JWKS, no call to
 * the asserting workload. Its rejections are {@link BearerForwardAttackIT}'s.
 */
class BearerForwardFlowIT extends ModeFlowContractIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Override
    String mode() {
        return "bearer-forward";
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        assertThat(mint.has("token")).isFalse();
        JsonNode claims = mint.get("claims");
        assertThat(claims.get("signed").asBoolean()).isTrue();
        assertThat(claims.get("exp").asLong()).isEqualTo(expiry(accessToken));
        assertThat(mint.get("size").asInt()).isEqualTo(accessToken.length());
    }

    @Override
    void assertPath(List<String> path) {
        assertThat(path).containsExactly(id("m-tier"), id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        return List.of("{\"token\":\"e30\"}", "{\"amount\":5}");
    }

    @Test
    void flowWhenBalanceThenEveryTierVerifiesTheTokenAndNoCallToTheAssertingWorkload() {
        String token = client.userToken("user0082");
        assertThat(client.user(mode(), "balance", token, null).status()).isEqualTo(200);

        for (String workload : List.of("subject-wl", "m-tier", "target-wl")) {
            assertThat(lines(client.prometheus(workload).body()))
                    .as(workload)
                    .anyMatch(l -> l.contains("operation=\"oauth_verify\""));
        }
        List<String> subject = lines(client.prometheus("subject-wl").body());
        assertThat(subject).noneMatch(l -> l.contains("operation=\"mint_call\""));
        assertThat(client.prometheus("m-tier").body()).containsPattern(documentSize(mode(), 1));
        assertThat(lines(client.prometheus("target-wl").body())).noneMatch(l -> l.contains("_call\""));
    }

    private static List<String> lines(String scrape) {
        return scrape.lines()
                .filter(l -> !l.startsWith("#") && l.contains("mode=\"bearer-forward\""))
                .toList();
    }

    private static long expiry(String accessToken) {
        String payload = new String(Base64.getUrlDecoder().decode(accessToken.split("\\.")[1]), StandardCharsets.UTF_8);
        return SystemClient.JSON.readTree(payload).get("exp").asLong();
    }
}
