package io.spiffeidt.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** A renamed key stops the start with the new key named; the new keys pass. */
class RenamedSettingsTests {

    private final RenamedSettings check = new RenamedSettings();

    @Test
    void startWhenOldDvidKeyPathInYamlThenFailsNamingTheNewKey() {
        StandardEnvironment environment = environment(Map.of("spiffeidt.asserting.dvid.key-path", "/keys/dvid.pem"));

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spiffeidt.asserting.dvid → spiffeidt.dvid")
                .hasMessageNotContaining("/keys/dvid.pem");
    }

    @Test
    void startWhenOldKeyAsEnvironmentVariableThenFails() {
        StandardEnvironment environment = new StandardEnvironment();
        String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
        Map<String, Object> variables =
                Map.of("SPIFFEIDT_MTIER_ANONMODE_EXTEND", "false", "SPIFFEIDT_TOKENMEMO_TTL", "1m");
        environment.getPropertySources().replace(name, new SystemEnvironmentPropertySource(name, variables));

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("spiffeidt.mtier.anon-mode.extend → spiffeidt.anon-mode.extend")
                .hasMessageContaining("spiffeidt.token-memo → spiffeidt.memo.uses.oauth-token");
    }

    @Test
    void startWhenMemoSetUnderItsOldKeyThenFailsNamingTheMapKey() {
        StandardEnvironment environment = new StandardEnvironment();
        String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
        Map<String, Object> variables = Map.of("SPIFFEIDT_MEMO_LSVIDCHAIN_TTL", "30s");
        environment.getPropertySources().replace(name, new SystemEnvironmentPropertySource(name, variables));

        assertThatThrownBy(() -> check.postProcessEnvironment(environment, new SpringApplication()))
                .hasMessageContaining("spiffeidt.memo.lsvid-chain → spiffeidt.memo.uses.lsvid-chain");
    }

    @Test
    void startWhenOnlyNewKeysThenPasses() {
        StandardEnvironment environment = environment(Map.of(
                "spiffeidt.dvid.key-path", "/keys/dvid.pem",
                "spiffeidt.memo.enabled", "true",
                "spiffeidt.memo.uses.oauth-proof.size", "10",
                "spiffeidt.asserting.introspection.store", "jdbc",
                "spiffeidt.anon-mode.extend", "false"));

        check.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spiffeidt.dvid.key-path")).isEqualTo("/keys/dvid.pem");
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
