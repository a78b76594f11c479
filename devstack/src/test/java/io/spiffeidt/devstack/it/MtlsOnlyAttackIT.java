package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the mtls-only baseline refuses (docs/formats/mtls-only.md "Rejections"), each with its code,
 * and the weakness it documents: a tier on the allow-list is taken at its word, so the middle tier
 * can act as any user at the target.
 */
class MtlsOnlyAttackIT extends EmbeddedStackIT {

    private static final String HEADER = "SpiffeIdt-User";

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    private static String user(String name) {
        return "iss=\"" + stack.idpUrl().toString().replaceAll("/$", "") + "\", sub=\"" + name + "\"";
    }

    private static Answer present(String as, String workload, String operation, String body, Map<String, String> h) {
        return client.asWorkload(as, workload, "/mtls-only/" + operation, body, h);
    }

    @Test
    void callWhenCallerNotOnTheAllowListThen403CallerNotAllowed() {
        Map<String, String> header = Map.of(HEADER, user("user0061"));
        // a workload outside the allow-lists names a user
        for (String workload : new String[] {"m-tier", "target-wl"}) {
            Answer intruder = present("intruder", workload, "balance", "{}", header);
            assertThat(intruder.status()).as(intruder.body()).isEqualTo(403);
            assertThat(intruder.json().get("code").asString()).isEqualTo("CALLER_NOT_ALLOWED");
        }
        // subject-wl may not skip the middle tier with a user header of its own
        Answer skipped = present("subject-wl", "target-wl", "deposit", "{\"amount\":5}", header);
        assertThat(skipped.status()).as(skipped.body()).isEqualTo(403);
        assertThat(skipped.json().get("code").asString()).isEqualTo("CALLER_NOT_ALLOWED");
        // nor may the asserting workload
        Answer asserting = present("asserting-wl", "target-wl", "balance", "{}", header);
        assertThat(asserting.status()).as(asserting.body()).isEqualTo(403);
        assertThat(asserting.json().get("code").asString()).isEqualTo("CALLER_NOT_ALLOWED");
    }

    @Test
    void callWhenUserHeaderMissingOrMalformedThen400Malformed() {
        for (String[] call : new String[][] {{"subject-wl", "m-tier"}, {"m-tier", "target-wl"}}) {
            Answer missing = present(call[0], call[1], "balance", "{}", Map.of());
            assertThat(missing.status()).as(missing.body()).isEqualTo(400);
            assertThat(missing.json().get("code").asString()).isEqualTo("MALFORMED");

            for (String bad : new String[] {
                "user0062",
                "sub=\"user0062\"",
                user("user0062") + ", x=1",
                user("a\\\"b"),
                user(""),
                user("u".repeat(256))
            }) {
                Answer malformed = present(call[0], call[1], "balance", "{}", Map.of(HEADER, bad));
                assertThat(malformed.status())
                        .as(bad + " -> " + malformed.body())
                        .isEqualTo(400);
                assertThat(malformed.json().get("code").asString()).isEqualTo("MALFORMED");
            }

            // a document in the body: this mode carries none
            Answer body = present(call[0], call[1], "balance", "{\"token\":\"e30\"}", Map.of(HEADER, user("user0062")));
            assertThat(body.status()).as(body.body()).isEqualTo(400);
            assertThat(body.json().get("code").asString()).isEqualTo("MALFORMED");
        }
    }

    @Test
    void callWhenUserOfAnIssuerNotAllowedThen401UnknownIssuer() {
        String other = "iss=\"https://idp.attacker.example\", sub=\"user0063\"";
        for (String[] call : new String[][] {{"subject-wl", "m-tier"}, {"m-tier", "target-wl"}}) {
            Answer a = present(call[0], call[1], "balance", "{}", Map.of(HEADER, other));
            assertThat(a.status()).as(a.body()).isEqualTo(401);
            assertThat(a.json().get("code").asString()).isEqualTo("UNKNOWN_ISSUER");
        }
    }

    /**
     * The documented weakness (docs/formats/mtls-only.md "What an attacker can do"): the target
     * cannot tell the middle tier's word from the user's. A compromised m-tier (here: the test
     * holding m-tier's SVID) names a user who never logged in, reads their balance and deposits
     * into their account; no token of that user exists anywhere.
     */
    @Test
    void targetWhenMiddleTierNamesAnyUserThenServesThatUserWithoutAnyProof() {
        String victim = "user0064";
        // the victim's own deposit, through the genuine flow
        Answer own = client.user("mtls-only", "deposit", client.userToken(victim), "{\"amount\":10}");
        assertThat(own.status()).as(own.body()).isEqualTo(200);

        // m-tier alone, without the victim's token, deposits and reads as the victim
        Map<String, String> header = Map.of(HEADER, user(victim));
        Answer forged = present("m-tier", "target-wl", "deposit", "{\"amount\":5}", header);
        assertThat(forged.status()).as(forged.body()).isEqualTo(200);
        assertThat(forged.json().get("user").asString()).isEqualTo(victim);
        assertThat(forged.json().get("balance").asLong()).isEqualTo(15);

        // and the victim sees it
        Answer seen = client.user("mtls-only", "balance", client.userToken(victim), null);
        assertThat(seen.json().get("balance").asLong()).isEqualTo(15);
    }
}
