package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Txn-Token Service's key rotates (a restart of asserting-wl makes a new key): m-tier and
 * target-wl hold the old key set (the memo {@code txn-token-keys} on), find the new key by its
 * {@code kid} at once, and refuse a token of the key that left the set ({@code UNTRUSTED_KEY}); while
 * the service is down, the held key set still verifies at the target.
 */
class TxnTokenRotationIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    private static String mint(String user) {
        Answer minted = client.user("txn-token", "mint", client.userToken(user), null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        return minted.json().get("token").asString();
    }

    /** {@code POST /txn-token/balance} at {@code workload} as {@code as}, the token in its header. */
    private static Answer balance(String as, String workload, String token) {
        return client.asWorkload(as, workload, "/txn-token/balance", "{}", Map.of("Txn-Token", token));
    }

    @Test
    void rotationWhenServiceRestartsWithANewKeyThenNewTokensServedAndOldOnesUntrusted() {
        String before = mint("user0061");
        // m-tier and target-wl hold the key set now
        assertThat(client.user("txn-token", "balance", client.userToken("user0061"), null)
                        .status())
                .isEqualTo(200);

        stack.stop("asserting-wl");
        try {
            // the target verifies with the key set it holds; m-tier cannot have the token replaced
            Answer atTarget = balance("m-tier", "target-wl", before);
            assertThat(atTarget.status()).as(atTarget.body()).isEqualTo(200);
            Answer atMTier = balance("subject-wl", "m-tier", before);
            assertThat(atMTier.status()).as(atMTier.body()).isIn(502, 503);
        } finally {
            stack.restart("asserting-wl");
        }

        String after = mint("user0062");
        Answer fresh = balance("subject-wl", "m-tier", after);
        assertThat(fresh.status()).as(fresh.body()).isEqualTo(200);
        assertThat(fresh.json().get("user").asString()).isEqualTo("user0062");
        Answer old = balance("subject-wl", "m-tier", before);
        assertThat(old.status()).as(old.body()).isEqualTo(401);
        assertThat(old.json().get("code").asString()).isEqualTo("UNTRUSTED_KEY");
    }
}
