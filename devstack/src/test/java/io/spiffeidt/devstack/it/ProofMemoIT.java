package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The verifiers' memo of verified OAuth proofs through the embedded stack under the {@code pooled}
 * profile: the first use of a document fetches and verifies its proof in full, every further use
 * of the same document offers the proof's digest, the asserting workload answers "unchanged" and
 * the held proof is taken from the memo ({@code spiffeidt.proof.memo{result=unchanged}}), and the
 * balance stays right. (With {@code spiffeidt.memo.enabled=false} the memo is empty: {@code SpiffeIdtAutoConfigurationTests}.)
 */
class ProofMemoIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral().withProperty("spiffeidt.pooling.profile", "pooled"));
    }

    @AfterAll
    static void stop() {
        stopStack();
    }

    private static double memo(String workload, String mode, String result) {
        Answer scrape = client.prometheus(workload);
        assertThat(scrape.status()).isEqualTo(200);
        Matcher m = Pattern.compile("spiffeidt_proof_memo_total\\{[^}]*mode=\"" + Pattern.quote(mode) + "\",result=\""
                        + result + "\"[^}]*} ([0-9.E]+)")
                .matcher(scrape.body());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** The sum of every series of {@code metric} at {@code workload} whose labels contain {@code label}. */
    private static double sum(String workload, String metric, String label) {
        Answer scrape = client.prometheus(workload);
        assertThat(scrape.status()).isEqualTo(200);
        return SystemClient.sum(scrape.body(), metric, label);
    }

    @Test
    void dvidWhenPooledThenTheMiddleTierValidatesAndIntrospectsInOneCall() {
        String token = client.userToken("user0079");
        assertThat(client.user("dvid", "mint", token, null).status()).isEqualTo(200);
        String requests = "http_server_requests_seconds_count";
        double validates = sum("asserting-wl", requests, "uri=\"/dvid/validate\"");
        double introspections = sum("asserting-wl", requests, "uri=\"/dvid/introspect\"");
        double introspectCalls = sum("m-tier", "spiffeidt_operation_seconds_count", "operation=\"introspect_call\"");
        double checks = checks();

        for (int i = 0; i < 3; i++) {
            Answer b = client.user("dvid", "balance", token, null);
            assertThat(b.status()).as(b.body()).isEqualTo(200);
        }

        // one validation per request, from m-tier (with the introspection); target-wl verifies itself
        assertThat(sum("asserting-wl", requests, "uri=\"/dvid/validate\"") - validates)
                .isEqualTo(3);
        assertThat(sum("asserting-wl", requests, "uri=\"/dvid/introspect\"") - introspections)
                .isZero();
        assertThat(sum("m-tier", "spiffeidt_operation_seconds_count", "operation=\"introspect_call\"")
                        - introspectCalls)
                .isZero();
        // the proof is still checked on every request
        assertThat(checks() - checks).isEqualTo(3);
    }

    private static double checks() {
        return memo("m-tier", "dvid", "miss") + memo("m-tier", "dvid", "hit") + memo("m-tier", "dvid", "unchanged");
    }

    @ParameterizedTest
    @ValueSource(strings = {"id-mode", "anon-mode", "dvid"})
    void depositWhenSameDocumentUsedAgainThenItsProofIsFetchedAndVerifiedOnceAndAnsweredUnchangedAfter(String mode) {
        // ID-Mode and Anon-Mode check the proof at target-wl, DVID at the m-tier
        String verifier = mode.equals("dvid") ? "m-tier" : "target-wl";
        String token = client.userToken("user00" + (71 + mode.length()));
        Answer minted = client.user(mode, "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        double hits = memo(verifier, mode, "hit");
        double misses = memo(verifier, mode, "miss");
        double unchanged = memo(verifier, mode, "unchanged");

        for (int i = 0; i < 3; i++) {
            Answer d = client.user(mode, "deposit", token, "{\"amount\":2}");
            assertThat(d.status()).as(d.body()).isEqualTo(200);
        }

        assertThat(memo(verifier, mode, "miss") - misses).isEqualTo(1);
        assertThat(memo(verifier, mode, "unchanged") - unchanged).isEqualTo(2);
        assertThat(memo(verifier, mode, "hit") - hits).isZero();
        assertThat(client.user(mode, "balance", token, null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(6);
    }
}
