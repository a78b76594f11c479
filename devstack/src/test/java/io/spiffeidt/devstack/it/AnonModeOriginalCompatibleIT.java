package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.anonmode.AnonModeExtender;
import io.spiffeidt.core.anonmode.AnonModeSettings;
import io.spiffeidt.core.anonmode.NonceSource;
import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Anon-Mode with the switches of an original-compatible run: every workload verifies under the
 * original-compatible profile, subject-wl writes its SPIFFE ID as {@code iid} (as the original did),
 * and m-tier forwards the token without extending it. The target then reveals subject-wl in the
 * path, and the token reaches it with two layers.
 */
class AnonModeOriginalCompatibleIT extends EmbeddedStackIT {

    private static final String MODE = "anon-mode";

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral()
                .withProperty("spiffeidt.verification.profile", "original-compatible")
                .withWorkloadProperty("subject-wl", "spiffeidt.anon-mode.include-iid", "true")
                .withWorkloadProperty("m-tier", "spiffeidt.anon-mode.extend", "false"));
    }

    @Test
    void flowWhenIidOnAndMiddleTierNotExtendingThenPathNamesSubjectOnly() {
        String user = "user0081";
        String token = client.userToken(user);
        Answer balance = client.user(MODE, "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("user").asString()).isEqualTo(user);
        assertThat(strings(balance.json().get("path")))
                .containsExactly(id("asserting-wl"), id("subject-wl"), id("target-wl"));

        Answer deposit = client.user(MODE, "deposit", token, "{\"amount\":7}");
        assertThat(deposit.status()).as(deposit.body()).isEqualTo(200);
        assertThat(deposit.json().get("balance").asLong()).isEqualTo(7);

        // m-tier verified but did not extend: no document of depth 3 anywhere
        String mtier = client.prometheus("m-tier").body();
        assertThat(mtier).contains("operation=\"validate\"").contains("operation=\"target_call\"");
        assertThat(mtier).doesNotContainPattern(documentSize(MODE, 3));
        assertThat(client.prometheus("subject-wl").body()).containsPattern(documentSize(MODE, 2));
    }

    @Test
    void middleTierWhenHopTamperedThenStill401UnderOriginalCompatibleProfile() {
        String root = client.user(MODE, "mint", client.userToken("user0082"), null)
                .json()
                .get("token")
                .asString();
        AnonModeSettings compatible = AnonModeSettings.strict(stack.idOf("subject-wl"), Clock.systemUTC())
                .withProfile(VerificationProfile.ORIGINAL_COMPATIBLE)
                .withIid(true);
        String withIid =
                new AnonModeExtender(compatible, NonceSource.secureRandom()).extend(root, stack.idOf("subject-wl"));
        String hop = new String(
                Base64.getUrlDecoder().decode(withIid.substring(0, withIid.indexOf('.'))), StandardCharsets.UTF_8);
        assertThat(hop).contains("\"iid\":\"" + id("subject-wl") + "\"");

        // the hop claims another iat: not even the relaxed profile accepts a wrong equation
        Matcher iat = Pattern.compile("\"iat\":(\\d+)").matcher(hop);
        assertThat(iat.find()).isTrue();
        String changed = hop.replace(iat.group(), "\"iat\":" + (Long.parseLong(iat.group(1)) - 1));
        String tampered =
                Base64.getUrlEncoder().withoutPadding().encodeToString(changed.getBytes(StandardCharsets.UTF_8))
                        + withIid.substring(withIid.indexOf('.'));
        Answer rejected = present(tampered);
        assertThat(rejected.status()).as(rejected.body()).isEqualTo(401);
        assertThat(rejected.json().get("code").asString()).isEqualTo("BAD_SIGNATURE");

        Answer ok = present(withIid);
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.json().get("user").asString()).isEqualTo("user0082");
    }

    private static Answer present(String token) {
        return client.asWorkload(
                "subject-wl", "m-tier", "/anon-mode/balance", "{\"token\":" + SystemClient.quote(token) + "}");
    }

    private static String id(String name) {
        return stack.idOf(name).toString();
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
