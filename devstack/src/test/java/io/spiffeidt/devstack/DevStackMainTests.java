package io.spiffeidt.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The launcher hands every argument to the component it names, or refuses it before anything starts. */
class DevStackMainTests {

    @Test
    void settingsWhenIdpAndWorkloadArgumentsThenBothKeptForTheStackToRoute() {
        DevStackSettings settings = DevStackMain.settings(
                new String[] {"--spiffeidt.idp.users=150", "--spiffeidt.pooling.profile=pooled"}, Map.of());

        assertThat(settings.properties())
                .containsEntry("spiffeidt.idp.users", "150")
                .containsEntry("spiffeidt.pooling.profile", "pooled");
    }

    @Test
    void settingsWhenSystemPropertyAndArgumentThenArgumentWinsAndOtherPropertiesIgnored() {
        DevStackSettings settings = DevStackMain.settings(
                new String[] {"--spiffeidt.idp.users=150"},
                Map.of("spiffeidt.idp.users", "120", "java.version", "17", "spiffeidt.devstack.ports.idp", "9100"));

        assertThat(settings.properties()).containsEntry("spiffeidt.idp.users", "150");
        assertThat(settings.properties()).doesNotContainKey("java.version");
        assertThat(settings.ports()).containsEntry("idp", 9100);
    }

    @Test
    void settingsWhenArgumentIsNotKeyValueThenRefused() {
        assertThatThrownBy(() -> DevStackMain.settings(new String[] {"spiffeidt.idp.users=150"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not --key=value");
        assertThatThrownBy(() -> DevStackMain.settings(new String[] {"--verbose"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settingsWhenUnknownLauncherKeyOrPortThenRefused() {
        assertThatThrownBy(() -> DevStackMain.settings(new String[] {"--spiffeidt.devstack.sockets=/tmp"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown launcher setting spiffeidt.devstack.sockets");
        assertThatThrownBy(() -> DevStackMain.settings(new String[] {"--spiffeidt.devstack.ports.bogus=1"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown port");
        assertThatThrownBy(() -> DevStackMain.settings(new String[] {"--spiffeidt.devstack.ports.idp=x"}, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a port number");
    }
}
