package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.devstack.it.SystemClient.Answer;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.testkit.Await;
import java.security.cert.X509Certificate;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The running workloads rotate their SVIDs and the LSVID flow keeps working: subject-wl and m-tier
 * rebuild their base documents from the new SVID and sign new layers with the new key, while the
 * layers of documents minted before the rotation stay valid.
 *
 * <p>The stack runs the default ({@code thesis}) profile, where subject-wl pools every downstream
 * and m-tier pools to the target. The key-bound bearer check only passes after a rotation because
 * the pooled clients open new connections, from a new SSL context, with the new certificate: a
 * kept-alive connection, or a new one resuming a TLS session of the old context, would still carry
 * the old certificate.
 */
class LsvidRotationIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Test
    void flowWhenRunningWorkloadsRotateThenKeptAndNewDocumentsKeepWorking() throws Exception {
        depositRotateAndUse("lsvid", "user0081");
    }

    /**
     * {@code user} mints a document of {@code mode} and deposits 6; subject-wl, m-tier and
     * asserting-wl rotate their SVIDs; the kept document deposits 4, a new one is minted, and the
     * balance is 10.
     */
    static void depositRotateAndUse(String mode, String user) throws Exception {
        String token = client.userToken(user);
        assertThat(client.user(mode, "deposit", token, "{\"amount\":6}").status())
                .isEqualTo(200);

        for (String workload : new String[] {"subject-wl", "m-tier", "asserting-wl"}) {
            X509Certificate before = stack.workloadApi().current(workload).leaf();
            stack.workloadApi().rotate(workload);
            X509Certificate after = awaitSvid(workload);
            assertThat(after.getPublicKey()).isNotEqualTo(before.getPublicKey());
        }

        // the kept document: inner layers signed with subject-wl's old key, new layers with the new ones
        Answer kept = client.user(mode, "deposit", token, "{\"amount\":4}");
        assertThat(kept.status()).as(kept.body()).isEqualTo(200);
        assertThat(kept.json().get("minted").asBoolean()).isFalse();
        assertThat(kept.json().get("balance").asLong()).isEqualTo(10);

        // a document minted after the rotation
        Answer minted = client.user(mode, "mint", token, null);
        assertThat(minted.status()).as(minted.body()).isEqualTo(200);
        Answer balance = client.user(mode, "balance", token, null);
        assertThat(balance.status()).as(balance.body()).isEqualTo(200);
        assertThat(balance.json().get("balance").asLong()).isEqualTo(10);
    }

    /** Waits until the running workload uses the SVID the Workload API issued last; returns its leaf. */
    static X509Certificate awaitSvid(String workload) throws InterruptedException {
        X509Certificate expected = stack.workloadApi().current(workload).leaf();
        WorkloadIdentity identity = stack.context(workload).getBean(WorkloadIdentity.class);
        assertThat(Await.until(() -> identity.svid().getLeaf(), expected::equals, Duration.ofSeconds(20)))
                .as(workload + " uses its rotated SVID")
                .isEqualTo(expected);
        return expected;
    }
}
