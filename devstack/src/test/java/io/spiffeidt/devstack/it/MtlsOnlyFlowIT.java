package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The mtls-only baseline through the four tiers over real SPIFFE mTLS with the development IdP: the
 * shared flow contract ({@link ModeFlowContractIT}) with no document at all, the user named by
 * subject-wl in the {@code SpiffeIdt-User} header, no call to the asserting workload, and the path
 * the target knows (its caller only). Its rejections are {@link MtlsOnlyAttackIT}'s.
 */
class MtlsOnlyFlowIT extends ModeFlowContractIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Override
    String mode() {
        return "mtls-only";
    }

    @Override
    void assertMinted(JsonNode mint, String user, String accessToken) {
        assertThat(mint.has("token")).isFalse();
        assertThat(mint.has("header")).isFalse();
        JsonNode claims = mint.get("claims");
        String header = "iss=\"" + stack.idpUrl().toString().replaceAll("/$", "") + "\", sub=\"" + user + "\"";
        assertThat(claims.get("header").asString()).isEqualTo("SpiffeIdt-User: " + header);
        assertThat(claims.get("signed").asBoolean()).isFalse();
        assertThat(mint.get("size").asInt()).isEqualTo(header.length());
    }

    @Override
    void assertPath(List<String> path) {
        assertThat(path).containsExactly(id("m-tier"), id("target-wl"));
    }

    @Override
    List<String> modeGarbage() {
        // a document in the body is refused: this mode carries none, and without the header no user
        return List.of("{\"token\":\"e30\"}", "{\"amount\":5}");
    }

    @Test
    void flowWhenBalanceThenNoCallToTheAssertingWorkloadAndUserHeaderSizeRecorded() {
        String token = client.userToken("user0081");
        assertThat(client.user(mode(), "balance", token, null).status()).isEqualTo(200);

        String subject = client.prometheus("subject-wl").body();
        assertThat(lines(subject)).noneMatch(l -> l.contains("operation=\"mint_call\""));
        assertThat(lines(subject)).anyMatch(l -> l.contains("operation=\"mtier_call\""));
        assertThat(subject).containsPattern(documentSize(mode(), 1));
        String mtier = client.prometheus("m-tier").body();
        assertThat(lines(mtier))
                .anyMatch(l -> l.contains("operation=\"validate\""))
                .anyMatch(l -> l.contains("operation=\"target_call\""));
        String target = client.prometheus("target-wl").body();
        assertThat(lines(target))
                .anyMatch(l -> l.contains("operation=\"validate\""))
                .noneMatch(l -> l.contains("_call\""));
    }

    private static List<String> lines(String scrape) {
        return scrape.lines()
                .filter(l -> !l.startsWith("#") && l.contains("mode=\"mtls-only\""))
                .toList();
    }
}
