package io.spiffeidt.devstack.workloadapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DevWorkloadApiTests {

    private String saved;

    @BeforeEach
    void saveProperty() {
        saved = System.getProperty(DevWorkloadApi.SOCKET_DIR_PROPERTY);
    }

    @AfterEach
    void restoreProperty() {
        if (saved == null) {
            System.clearProperty(DevWorkloadApi.SOCKET_DIR_PROPERTY);
        } else {
            System.setProperty(DevWorkloadApi.SOCKET_DIR_PROPERTY, saved);
        }
    }

    @Test
    void verifyWhenSocketDirPropertySetThenItIsTheDefaultSocketDir() {
        System.setProperty(DevWorkloadApi.SOCKET_DIR_PROPERTY, "/run/devstack-sockets");

        assertThat(DevWorkloadApi.defaultSocketDir()).isEqualTo(Path.of("/run/devstack-sockets"));
    }

    @Test
    void verifyWhenSocketDirPropertyUnsetThenTheDefaultIsUnderTheTempDir() {
        System.clearProperty(DevWorkloadApi.SOCKET_DIR_PROPERTY);

        assertThat(DevWorkloadApi.defaultSocketDir())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "spiffeidt-devstack"));
    }

    @Test
    void verifyWhenDefaultWorkloadsListedThenTheFourTiersInCallOrder() {
        assertThat(DevWorkloadApi.DEFAULT_WORKLOADS)
                .containsExactly("subject-wl", "asserting-wl", "m-tier", "target-wl");
    }
}
