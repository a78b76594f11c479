package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One user floods mints in every mode whose asserting workload keeps introspection records (DVID,
 * ID-Mode, Anon-Mode), against a store bounded to three records: the flood replaces only that user's
 * own records, and the other users' kept documents keep answering 200 without a new mint. A user
 * whose record was dropped anyway (the first record of a newcomer on a full store takes the store's
 * oldest) is minted a new document once, and the answer says so.
 */
class IntrospectionFloodIT extends EmbeddedStackIT {

    private static final int BOUND = 3;

    private static final int FLOOD = 40;

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral()
                .withWorkloadProperty(
                        "asserting-wl", "spiffeidt.asserting.introspection.max-entries", Integer.toString(BOUND)));
    }

    @ParameterizedTest
    @CsvSource({
        "dvid, user0001, user0002, user0003, user0004",
        "id-mode, user0005, user0006, user0007, user0008",
        "anon-mode, user0009, user0010, user0011, user0012"
    })
    void mintsWhenOneUserFloodsThenOtherUsersKeepTheirRecords(
            String mode, String first, String second, String third, String flooder) {
        String oldest = client.userToken(first);
        String victim = client.userToken(second);
        String other = client.userToken(third);
        String flood = client.userToken(flooder);
        for (String token : new String[] {oldest, victim, other}) {
            Answer minted = client.user(mode, "mint", token, null);
            assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        }

        for (int i = 0; i < FLOOD; i++) {
            Answer minted = client.user(mode, "mint", flood, null);
            assertThat(minted.status()).as("mint %d: %s", i, minted.body()).isEqualTo(200);
            // the users who were in the store before the flood keep their documents throughout
            if (i % 10 == 9) {
                assertUsedWithoutNewMint(mode, victim);
                assertUsedWithoutNewMint(mode, other);
            }
        }

        assertUsedWithoutNewMint(mode, victim);
        assertUsedWithoutNewMint(mode, other);
        assertUsedWithoutNewMint(mode, flood);
        // the store was full when the flooder's first record came: it took the store's oldest, the
        // first user's, whose kept document is minted again once, and said so
        Answer recovered = client.user(mode, "balance", oldest, null);
        assertThat(recovered.status()).as(recovered.body()).isEqualTo(200);
        assertThat(recovered.json().get("minted").asBoolean()).isTrue();
        assertUsedWithoutNewMint(mode, oldest);
    }

    private static void assertUsedWithoutNewMint(String mode, String token) {
        Answer answer = client.user(mode, "balance", token, null);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("minted").asBoolean()).as(answer.body()).isFalse();
    }
}
