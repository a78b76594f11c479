package io.spiffeidt.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the launcher deals with ports: a taken fixed port fails clearly, chosen ports never collide. */
class DevStackPortsIT {

    @Test
    void startWhenFixedPortIsTakenThenFailsWithPortClashAndReleasesTheRest() throws Exception {
        try (ServerSocket squatter = new ServerSocket()) {
            squatter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            DevStackSettings settings =
                    DevStackSettings.ephemeral().withPort("m-tier.management", squatter.getLocalPort());

            assertThatThrownBy(() -> DevStack.start(settings)).satisfies(e -> assertThat(DevStack.isPortClash(e))
                    .as("failure names the port clash")
                    .isTrue());
        }
        // the failed start stopped what it had started: a full stack comes up afterwards
        try (DevStack stack = DevStack.start(DevStackSettings.ephemeral())) {
            Set<Integer> ports = new HashSet<>();
            for (String key : DevStackSettings.DEFAULT_PORTS.keySet()) {
                int port = key.endsWith(".management")
                        ? stack.managementPort(key.substring(0, key.indexOf('.')))
                        : stack.port(key);
                assertThat(ports.add(port)).as("port of %s is unique", key).isTrue();
            }
            assertThat(ports).hasSize(DevStackSettings.DEFAULT_PORTS.size());
        }
    }

    @Test
    void isPortClashWhenUnrelatedFailureThenFalse() {
        assertThat(DevStack.isPortClash(new IllegalStateException("boom", new RuntimeException())))
                .isFalse();
        assertThat(DevStack.isPortClash(new IllegalStateException(new java.net.BindException())))
                .isTrue();
    }
}
