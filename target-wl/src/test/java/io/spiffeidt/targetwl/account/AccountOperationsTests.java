package io.spiffeidt.targetwl.account;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Mode;
import org.junit.jupiter.api.Test;

/** The request fingerprint of an idempotent deposit: SHA-256 of the canonical body, mode included. */
class AccountOperationsTests {

    @Test
    void fingerprintWhenComputedThenSha256OfTheCanonicalBody() {
        // printf '{"amount":30,"mode":"dvid"}' | sha256sum
        assertThat(AccountOperations.fingerprint(Mode.DVID, 30))
                .isEqualTo("8ab59f0afc718c2723424c8d1cb2056013ca59375843407861501f2318b64135");
    }

    @Test
    void fingerprintWhenModeOrAmountDiffersThenDiffers() {
        String dvid30 = AccountOperations.fingerprint(Mode.DVID, 30);

        assertThat(AccountOperations.fingerprint(Mode.LSVID, 30)).isNotEqualTo(dvid30);
        assertThat(AccountOperations.fingerprint(Mode.DVID, 31)).isNotEqualTo(dvid30);
    }
}
