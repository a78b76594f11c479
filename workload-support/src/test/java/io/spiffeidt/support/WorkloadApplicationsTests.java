package io.spiffeidt.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The Spring profile {@code thesis} reaches a workload started the way its main method starts it. */
class WorkloadApplicationsTests {

    private static StandardEnvironment environment(String configName, String... profiles) {
        StandardEnvironment environment = new StandardEnvironment();
        environment
                .getPropertySources()
                .addLast(new MapPropertySource("defaults", Map.of("spring.config.name", configName)));
        environment.setActiveProfiles(profiles);
        ConfigDataEnvironmentPostProcessor.applyTo(environment);
        return environment;
    }

    @Test
    void thesisProfileSetsThePoolingAndTurnsTheMemosOff() {
        StandardEnvironment environment = environment(WorkloadApplications.configName("m-tier"), "thesis");

        assertThat(environment.getProperty("spiffeidt.pooling.profile")).isEqualTo("thesis");
        assertThat(environment.getProperty("spiffeidt.memo.enabled")).isEqualTo("false");
    }

    @Test
    void withoutTheProfileNothingOfItApplies() {
        StandardEnvironment environment = environment(WorkloadApplications.configName("m-tier"));

        assertThat(environment.getProperty("spiffeidt.pooling.profile")).isNull();
        assertThat(environment.getProperty("spiffeidt.memo.enabled")).isNull();
    }

    @Test
    void theWorkloadsOwnNameAloneNeverReadsTheProfileFile() {
        // what the workloads did before: the profile was accepted and did nothing
        StandardEnvironment environment = environment("m-tier", "thesis");

        assertThat(environment.getProperty("spiffeidt.memo.enabled")).isNull();
    }

    @Test
    void configNameIsApplicationThenTheWorkload() {
        assertThat(WorkloadApplications.configName("subject-wl")).isEqualTo("application,subject-wl");
        assertThatIllegalArgumentException().isThrownBy(() -> WorkloadApplications.configName("a,b"));
        assertThatIllegalArgumentException().isThrownBy(() -> WorkloadApplications.configName(" "));
    }
}
