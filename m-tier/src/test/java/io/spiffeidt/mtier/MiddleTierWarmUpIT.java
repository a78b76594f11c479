package io.spiffeidt.mtier;

import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.RunningWorkload;
import io.spiffeidt.support.testing.StubWorkload;
import io.spiffeidt.support.testing.TestIdentities;
import io.spiffeidt.support.warmup.StartupWarmUp;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * m-tier's start-up warm-up, on the real application over SPIFFE mTLS: every endpoint refuses the
 * workload itself, and nothing reaches its neighbours.
 */
class MiddleTierWarmUpIT {

    @TempDir
    Path dir;

    @Test
    void warmUpWhenSetThenEveryModeEndpointRefusedItAndNoCallWentDownstream() throws Exception {
        try (StubWorkload target = new StubWorkload(TestIdentities.source(Role.TARGET_WL));
                StubWorkload asserting = new StubWorkload(TestIdentities.source(Role.ASSERTING_WL));
                RunningWorkload mTier = RunningWorkload.start(
                        MiddleTierApplication.class,
                        Role.M_TIER,
                        dir,
                        Map.of(
                                "spiffeidt.endpoints.target-wl",
                                target.uri().toString(),
                                "spiffeidt.endpoints.asserting-wl",
                                asserting.uri().toString(),
                                "spiffeidt.pooling.profile",
                                "pooled",
                                "spiffeidt.warm-up.requests",
                                "300"))) {
            StartupWarmUp.Result warmUp =
                    mTier.context().getBean(StartupWarmUp.class).result().orElseThrow();

            for (Mode mode : Mode.values()) {
                assertThat(warmUp.paths())
                        .contains("/" + mode.pathSegment() + "/balance", "/" + mode.pathSegment() + "/deposit");
            }
            assertThat(warmUp.answers()).isEqualTo(Map.of(403, 300));
            assertThat(warmUp.stopped()).isEmpty();
            assertThat(target.received()).isEmpty();
            assertThat(asserting.received()).isEmpty();
        }
    }
}
