package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.support.testing.TestOAuthIssuer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hardening issue's account identity point through the embedded stack: with two allow-listed
 * issuers, the same user name at each is two accounts (accounts are keyed by issuer and subject),
 * in a mode without a proof (LSVID) and in modes whose verifiers check the OAuth proof under the key
 * they resolve from the second issuer's own JWKS (ID-Mode, DVID).
 */
class AccountIdentityAttackIT extends EmbeddedStackIT {

    private static TestOAuthIssuer otherIssuer;

    @BeforeAll
    static void start() throws Exception {
        otherIssuer = new TestOAuthIssuer();
        startStack(DevStackSettings.ephemeral()
                .withProperty("spiffeidt.oauth.issuers[1].issuer", otherIssuer.issuer())
                .withProperty("spiffeidt.oauth.issuers[1].audience", "spiffeidt"));
    }

    @AfterAll
    static void stop() {
        stopStack();
        if (otherIssuer != null) {
            otherIssuer.close();
        }
    }

    private static long deposit(String mode, String token, long amount) {
        Answer a = client.user(mode, "deposit", token, "{\"amount\":" + amount + "}");
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return a.json().get("balance").asLong();
    }

    private static Answer balance(String mode, String token) {
        Answer a = client.user(mode, "balance", token, null);
        assertThat(a.status()).as(a.body()).isEqualTo(200);
        return a;
    }

    @ParameterizedTest
    @ValueSource(strings = {"lsvid", "id-mode", "dvid"})
    void depositWhenSameUserNameAtTwoIssuersThenTwoSeparateAccounts(String mode) {
        String user = "user00" + (52 + List.of("lsvid", "id-mode", "dvid").indexOf(mode));
        String atDevIdp = client.userToken(user);
        String atOtherIssuer = otherIssuer.token(user);
        long devStart = balance(mode, atDevIdp).json().get("balance").asLong();

        deposit(mode, atDevIdp, 30);
        long other = deposit(mode, atOtherIssuer, 7);

        Answer dev = balance(mode, atDevIdp);
        Answer second = balance(mode, atOtherIssuer);
        assertThat(dev.json().get("user").asString()).isEqualTo(user);
        assertThat(second.json().get("user").asString()).isEqualTo(user);
        assertThat(dev.json().get("balance").asLong()).isEqualTo(devStart + 30);
        assertThat(other).isEqualTo(7);
        assertThat(second.json().get("balance").asLong()).isEqualTo(7);
    }
}
