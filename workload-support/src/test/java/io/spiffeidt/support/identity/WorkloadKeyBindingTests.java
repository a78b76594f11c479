package io.spiffeidt.support.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.support.client.ConnectionStrategy;
import io.spiffeidt.support.client.PoolingProperties;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Maps keyed by workload bind from YAML, arguments and environment variables; a key that names no
 * workload (an environment variable with an underscore inside the workload name) fails with a report
 * that names the property, the key, where it came from and the accepted spellings.
 */
@ExtendWith(OutputCaptureExtension.class)
class WorkloadKeyBindingTests {

    private static SystemEnvironmentPropertySource environment(Map<String, Object> variables) {
        return new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables);
    }

    private static StandardEnvironment withSources(PropertySource<?>... sources) {
        StandardEnvironment env = new StandardEnvironment();
        MutablePropertySources all = env.getPropertySources();
        all.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        all.remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        for (PropertySource<?> source : sources) {
            all.addLast(source);
        }
        ConfigurationPropertySources.attach(env);
        return env;
    }

    /** What a workload binds from one environment: its identity and its pooling settings. */
    private record Bound(IdentityProperties identity, PoolingProperties pooling) {
        URI endpointOf(Role role) {
            return identity.endpointOf(role);
        }

        Map<Role, String> ids() {
            return identity.ids();
        }
    }

    private static Bound bind(StandardEnvironment env) {
        Binder binder = Binder.get(env);
        return new Bound(
                binder.bindOrCreate("spiffeidt", IdentityProperties.class),
                binder.bindOrCreate("spiffeidt.pooling", PoolingProperties.class));
    }

    private static FailureAnalysis analyze(StandardEnvironment env) {
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> bind(env));
        assertThat(failure).isInstanceOf(BindException.class);
        FailureAnalysis analysis = new WorkloadKeyFailureAnalyzer(env).analyze(failure);
        assertThat(analysis).as("analysis of %s", failure).isNotNull();
        return analysis;
    }

    @Test
    void bindWhenEnvironmentVariablesWithoutHyphensThenEveryWorkloadKeyBinds() {
        Bound p = bind(withSources(environment(Map.of(
                "SPIFFEIDT_ENDPOINTS_ASSERTINGWL", "https://asserting-wl:8443",
                "SPIFFEIDT_ENDPOINTS_TARGETWL", "https://target-wl:8444",
                "SPIFFEIDT_ENDPOINTS_MTIER", "https://m-tier:8445",
                "SPIFFEIDT_IDS_SUBJECTWL", "spiffe://example.org/ns/default/sa/subject",
                "SPIFFEIDT_POOLING_OVERRIDES_IDMODE_ASSERTINGWL", "pooled",
                "SPIFFEIDT_POOLING_OVERRIDES_DVID_TARGETWL", "non-pooled"))));

        assertThat(p.endpointOf(Role.ASSERTING_WL)).isEqualTo(URI.create("https://asserting-wl:8443"));
        assertThat(p.endpointOf(Role.TARGET_WL)).isEqualTo(URI.create("https://target-wl:8444"));
        assertThat(p.endpointOf(Role.M_TIER)).isEqualTo(URI.create("https://m-tier:8445"));
        assertThat(p.ids().get(Role.SUBJECT_WL)).isEqualTo("spiffe://example.org/ns/default/sa/subject");
        assertThat(p.pooling().overrides())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "id-mode.asserting-wl", ConnectionStrategy.POOLED,
                        "dvid.target-wl", ConnectionStrategy.NON_POOLED));
    }

    @Test
    void bindWhenArgumentsAndYamlSpellingThenEveryWorkloadKeyBinds() {
        Bound p = bind(withSources(
                new SimpleCommandLinePropertySource(
                        "--spiffeidt.endpoints.asserting-wl=https://a:1",
                        "--spiffeidt.pooling.overrides.anon-mode.target-wl=pooled"),
                new MapPropertySource(
                        "yaml",
                        Map.of(
                                "spiffeidt.endpoints.m-tier", "https://m:3",
                                "spiffeidt.ids.target-wl", "spiffe://example.org/target",
                                "spiffeidt.pooling.overrides[dvid.asserting-wl]", "non-pooled"))));

        assertThat(p.endpointOf(Role.ASSERTING_WL)).isEqualTo(URI.create("https://a:1"));
        assertThat(p.endpointOf(Role.M_TIER)).isEqualTo(URI.create("https://m:3"));
        assertThat(p.ids().get(Role.TARGET_WL)).isEqualTo("spiffe://example.org/target");
        assertThat(p.pooling().overrides())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "anon-mode.target-wl", ConnectionStrategy.POOLED,
                        "dvid.asserting-wl", ConnectionStrategy.NON_POOLED));
    }

    @Test
    void bindWhenEnvironmentVariableAndYamlKeyTheSameWorkloadThenEnvironmentWins() {
        Bound p = bind(withSources(
                environment(Map.of(
                        "SPIFFEIDT_ENDPOINTS_MTIER", "https://m-tier:8445",
                        "SPIFFEIDT_POOLING_OVERRIDES_DVID_ASSERTINGWL", "pooled")),
                new MapPropertySource(
                        "yaml",
                        Map.of(
                                "spiffeidt.endpoints.m-tier", "https://127.0.0.1:8445",
                                "spiffeidt.pooling.overrides.dvid.asserting-wl", "non-pooled"))));

        assertThat(p.endpointOf(Role.M_TIER)).isEqualTo(URI.create("https://m-tier:8445"));
        assertThat(p.pooling().overrides())
                .containsExactlyEntriesOf(Map.of("dvid.asserting-wl", ConnectionStrategy.POOLED));
    }

    @Test
    void bindWhenEnvironmentVariableSplitsEndpointWorkloadThenReportNamesPropertyKeyOriginAndSpellings() {
        FailureAnalysis analysis = analyze(withSources(environment(Map.of(
                "SPIFFEIDT_ENDPOINTS_ASSERTINGWL", "https://asserting-wl:8443",
                "SPIFFEIDT_ENDPOINTS_M_TIER", "https://m-tier:8445"))));

        assertThat(analysis.getDescription())
                .contains("'m' is no key of spiffeidt.endpoints")
                .contains("asserting-wl, m-tier, subject-wl, target-wl")
                .contains("SPIFFEIDT_ENDPOINTS_M_TIER")
                .doesNotContain("No enum constant");
        assertThat(analysis.getAction())
                .contains("--spiffeidt.endpoints.asserting-wl=")
                .contains("SPIFFEIDT_ENDPOINTS_ASSERTINGWL, SPIFFEIDT_ENDPOINTS_MTIER, SPIFFEIDT_ENDPOINTS_SUBJECTWL, "
                        + "SPIFFEIDT_ENDPOINTS_TARGETWL")
                .contains("SPIFFEIDT_ENDPOINTS_ASSERTING_WL would bind the key 'asserting'");
    }

    @Test
    void bindWhenIdKeyNamesNoWorkloadThenReportNamesIds() {
        FailureAnalysis analysis = analyze(
                withSources(environment(Map.of("SPIFFEIDT_IDS_TARGETWORKLOAD", "spiffe://example.org/target"))));

        assertThat(analysis.getDescription())
                .contains("'targetworkload' is no key of spiffeidt.ids")
                .contains("SPIFFEIDT_IDS_TARGETWORKLOAD");
        assertThat(analysis.getAction()).contains("SPIFFEIDT_IDS_TARGETWL");
    }

    @Test
    void bindWhenOverrideKeyNamesNoCellThenReportNamesOverridesAndSpellings() {
        FailureAnalysis analysis =
                analyze(withSources(environment(Map.of("SPIFFEIDT_POOLING_OVERRIDES_DVID_ASSERTING_WL", "pooled"))));

        assertThat(analysis.getDescription())
                .contains("'dvid.asserting.wl' is no key of spiffeidt.pooling.overrides")
                .contains("dvid.subject-wl, dvid.asserting-wl")
                .contains("SPIFFEIDT_POOLING_OVERRIDES_DVID_ASSERTING_WL");
        assertThat(analysis.getAction()).contains("SPIFFEIDT_POOLING_OVERRIDES_IDMODE_ASSERTINGWL");
    }

    @Test
    void bindWhenYamlKeyNamesNoWorkloadThenReportNamesIt() {
        FailureAnalysis analysis = analyze(
                withSources(new MapPropertySource("yaml", Map.of("spiffeidt.endpoints.mtier2", "https://m:1"))));

        assertThat(analysis.getDescription()).contains("'mtier2' is no key of spiffeidt.endpoints");
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({IdentityProperties.class, PoolingProperties.class})
    static class PropertiesOnly {}

    @Test
    void startWhenEnvironmentVariableSplitsWorkloadThenStartUpReportInsteadOfEnumStackTrace(CapturedOutput output) {
        SpringApplication application = new SpringApplication(PropertiesOnly.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources()
                .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        environment(Map.of("SPIFFEIDT_ENDPOINTS_TARGET_WL", "https://target-wl:8444")));
        application.setEnvironment(env);

        assertThatThrownBy(() -> application.run()).hasRootCauseInstanceOf(IllegalArgumentException.class);
        assertThat(output.getOut() + output.getErr())
                .contains("APPLICATION FAILED TO START")
                .contains("'target' is no key of spiffeidt.endpoints")
                .contains("System Environment Property \"SPIFFEIDT_ENDPOINTS_TARGET_WL\"")
                .contains("SPIFFEIDT_ENDPOINTS_TARGETWL")
                .doesNotContain("The following values are valid");
        assertThat(List.of(output.getOut().split("\n"))).noneMatch(line -> line.startsWith("\tat "));
    }
}
