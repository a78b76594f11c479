package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A running workload picks up a rotated X.509-SVID from the development Workload API (through
 * java-spiffe's DefaultX509Source, unchanged) and serves and calls with it; the flow keeps working.
 */
class SvidRotationIT extends EmbeddedStackIT {

    @BeforeAll
    static void start() {
        startStack(DevStackSettings.ephemeral());
    }

    @Test
    void serverWhenSvidRotatedThenPresentsNewCertificateAndFlowContinues() throws Exception {
        String token = client.userToken("user0051");
        assertThat(client.user("dvid", "balance", token, null).status()).isEqualTo(200);
        X509Certificate before = client.serverLeaf("m-tier");
        assertThat(before).isEqualTo(stack.workloadApi().current("m-tier").leaf());

        stack.workloadApi().rotate("m-tier");
        stack.workloadApi().rotate("asserting-wl");
        X509Certificate expected = stack.workloadApi().current("m-tier").leaf();
        assertThat(expected).isNotEqualTo(before);

        X509Certificate seen = before;
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!seen.equals(expected) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
            seen = client.serverLeaf("m-tier");
        }
        assertThat(seen).as("m-tier serves the rotated SVID").isEqualTo(expected);
        assertThat(seen.getPublicKey()).isNotEqualTo(before.getPublicKey());

        // the rotated workloads still call and accept each other, with pooled connections too
        assertThat(client.user("dvid", "deposit", token, "{\"amount\":3}").status())
                .isEqualTo(200);
        assertThat(client.user("dvid", "balance", token, null)
                        .json()
                        .get("balance")
                        .asLong())
                .isEqualTo(3);
    }
}
