package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.targetwl.account.AccountProperties;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Idempotent deposits through the four tiers (docs/formats/common.md "Idempotent deposits"): the
 * user's {@code Idempotency-Key} travels subject-wl → m-tier → target-wl in every mode, so a retried
 * deposit answers the first answer and leaves the balance alone, the key reused for another amount is
 * 422, a malformed key is 400, and a deposit without a key is applied every time, as before.
 */
class IdempotentDepositIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Test
    void embeddedTargetWhenStartedThenKeysRememberedTenMinutesNotADay() {
        // the embedded accounts are an in-memory H2 on the heap (the soak profile)
        AccountProperties account = stack.context("target-wl").getBean(AccountProperties.class);

        assertThat(account.idempotencyRetention()).isEqualTo(Duration.ofMinutes(10));
        assertThat(AccountProperties.defaults().idempotencyRetention()).isEqualTo(Duration.ofHours(24));
    }

    @ParameterizedTest
    @CsvSource({"dvid, user0096", "id-mode, user0097", "anon-mode, user0098", "lsvid, user0099"})
    void depositWhenRetriedWithTheSameKeyThenAppliedOnceAndAnsweredAgain(String mode, String user) {
        String token = client.userToken(user);
        Map<String, String> key =
                Map.of("Idempotency-Key", SystemClient.quote(UUID.randomUUID().toString()));

        Answer first = client.user(mode, "deposit", token, "{\"amount\":30}", key);
        Answer retried = client.user(mode, "deposit", token, "{\"amount\":30}", key);

        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().get("balance").asLong()).isEqualTo(30);
        assertThat(retried.status()).as(retried.body()).isEqualTo(200);
        assertThat(retried.json().get("balance").asLong()).isEqualTo(30);
        assertThat(retried.json().get("mode").asString()).isEqualTo(mode);
        assertThat(balance(mode, token)).isEqualTo(30);

        Answer otherAmount = client.user(mode, "deposit", token, "{\"amount\":31}", key);

        assertThat(otherAmount.status()).as(otherAmount.body()).isEqualTo(422);
        assertThat(otherAmount.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_MISMATCH");
        assertThat(balance(mode, token)).isEqualTo(30);

        Answer unquoted = client.user(mode, "deposit", token, "{\"amount\":5}", Map.of("Idempotency-Key", "abc"));
        Answer empty = client.user(mode, "deposit", token, "{\"amount\":5}", Map.of("Idempotency-Key", "\"\""));

        assertThat(unquoted.status()).as(unquoted.body()).isEqualTo(400);
        assertThat(unquoted.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_INVALID");
        assertThat(empty.status()).as(empty.body()).isEqualTo(400);
        assertThat(empty.json().get("code").asString()).isEqualTo("IDEMPOTENCY_KEY_INVALID");
        assertThat(balance(mode, token)).isEqualTo(30);

        client.user(mode, "deposit", token, "{\"amount\":2}");
        client.user(mode, "deposit", token, "{\"amount\":2}");

        assertThat(balance(mode, token))
                .as("without a key every deposit is applied")
                .isEqualTo(34);
    }

    private static long balance(String mode, String token) {
        Answer balance = client.user(mode, "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        return balance.json().get("balance").asLong();
    }
}
