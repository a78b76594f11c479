package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * DVID with the proof embedded as the {@code zkp} claim (docs/formats/dvid.md) and made lazily at the
 * first introspection: the ~100 KB document travels in JSON bodies through every tier.
 */
class DvidEmbeddedProofIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(
                DevStackSettings.ephemeral().withWorkloadProperty("asserting-wl", "spiffeidt.dvid.embed-zkp", "true"));
    }

    @Test
    void flowWhenProofEmbeddedThenClaimVerifiedAtEveryTier() {
        String token = client.userToken("user0061");
        Answer minted = client.user("dvid", "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        JsonNode zkp = minted.json().get("claims").get("zkp");
        assertThat(zkp).isNotNull();
        assertThat(zkp.get("proof").asString()).contains("proofp", "proofc");
        assertThat(zkp.get("msg").asString()).isEqualTo(token.substring(0, token.lastIndexOf('.')));
        assertThat(minted.json().get("size").asInt()).isGreaterThan(20_000);

        Answer deposit = client.user("dvid", "deposit", token, "{\"amount\":7}");
        assertThat(deposit.status()).as(deposit.body()).isEqualTo(200);
        assertThat(deposit.json().get("balance").asLong()).isEqualTo(7);
    }

    @Test
    void validateWhenEmbeddedProofTamperedThenRejected() {
        String token = client.userToken("user0062");
        String dvid =
                client.user("dvid", "mint", token, null).json().get("token").asString();
        String[] parts = dvid.split("\\.");
        // re-signing is impossible without the key, so any change to the payload breaks the signature
        String tampered = withPayloadCharChanged(dvid, parts[1].length() / 2);
        Answer rejected = client.asWorkload(
                "subject-wl", "m-tier", "/dvid/balance", "{\"token\":" + SystemClient.quote(tampered) + "}");
        assertThat(rejected.status()).as(rejected.body()).isIn(400, 401);
    }
}
