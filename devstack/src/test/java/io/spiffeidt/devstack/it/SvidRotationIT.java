package io.spiffeidt.devstack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.devstack.DevStackSettings;
import io.spiffeidt.testkit.Await;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A running workload picks up a rotated X.509-SVID from the development Workload API (through
 * java-spiffe's DefaultX509Source, unchanged) and serves and calls with it; the flow keeps working.
 */
class SvidRotationIT extends EmbeddedStackIT {

    /** At least this many rotations of each of subject-wl and m-tier while calls run... */
    private static final int ROTATIONS = 100;

    /** ...and at least this many calls. */
    private static final int MIN_CALLS = 100;

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

        X509Certificate seen = Await.until(
                () -> client.serverLeaf("m-tier"), expected::equals, Duration.ofSeconds(20), Duration.ofMillis(100));
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

    /**
     * ID-Mode and LSVID bind each layer to the mTLS presenter's key: a hop that signed with one SVID
     * and presented another would be refused with WRONG_PRESENTER. Rotations of subject-wl and
     * m-tier while calls run must not fail one call.
     */
    @Test
    void flowWhenSvidsRotateWhileCallsRunThenNoCallFails() throws Exception {
        Map<String, String> tokens = new LinkedHashMap<>();
        tokens.put("id-mode", client.userToken("user0052"));
        tokens.put("lsvid", client.userToken("user0053"));
        tokens.forEach((mode, token) ->
                assertThat(client.user(mode, "mint", token, null).status()).isEqualTo(200));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        List<String> failures = new CopyOnWriteArrayList<>();
        List<Thread> callers = new ArrayList<>();
        tokens.forEach((mode, token) -> {
            Thread caller = new Thread(() -> {
                while (!stop.get()) {
                    SystemClient.Answer answer = client.user(mode, "balance", token, null);
                    calls.incrementAndGet();
                    if (answer.status() != 200) {
                        failures.add(mode + ": " + answer.status() + " " + answer.body());
                    }
                }
            });
            caller.start();
            callers.add(caller);
        });
        int rotations = 0;
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        try {
            // far faster than any SVID lifetime: each call of each mode meets rotations in flight
            while ((rotations < ROTATIONS || calls.get() < MIN_CALLS)
                    && Instant.now().isBefore(deadline)) {
                stack.workloadApi().rotate("m-tier");
                Thread.sleep(10);
                stack.workloadApi().rotate("subject-wl");
                Thread.sleep(10);
                rotations++;
            }
        } finally {
            stop.set(true);
            for (Thread caller : callers) {
                caller.join(30_000);
            }
        }

        assertThat(calls.get()).isGreaterThanOrEqualTo(MIN_CALLS);
        assertThat(failures)
                .as("of %d calls during %d rotations of each", calls.get(), rotations)
                .isEmpty();
    }
}
