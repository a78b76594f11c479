package io.spiffeidt.asserting.anonmode;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.asserting.introspection.ZkpTiming;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AnonModeAssertingConfigurationTests {

    @Test
    void anonModeProofsWhenZkpOffThenRefusedWhateverTheStore() {
        AnonModeAssertingProperties off = new AnonModeAssertingProperties(Duration.ofSeconds(120), ZkpTiming.OFF, 80);

        assertThatThrownBy(() -> new AnonModeAssertingConfiguration().anonModeProofs(null, null, off))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spiffeidt.anon-mode.zkp=off is not supported");
    }
}
