package io.spiffeidt.support.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** Export stays off, and nothing is logged, until an endpoint is configured (docs/tracing.md). */
class TracingDefaultsTests {

    private static StandardEnvironment environment(Map<String, Object> properties, Map<String, Object> variables) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("testEnvironment", variables));
        ConfigurationPropertySources.attach(environment);
        new TracingDefaults().postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void defaultsWhenNoEndpointThenZipkinOffAndNothingSampled() {
        StandardEnvironment env = environment(Map.of(), Map.of());

        assertThat(env.getProperty("management.tracing.export.zipkin.enabled")).isEqualTo("false");
        assertThat(env.getProperty("management.tracing.sampling.probability")).isEqualTo("0.0");
    }

    @Test
    void defaultsWhenZipkinEndpointInEnvironmentVariableThenZipkinOnAndEverythingSampled() {
        StandardEnvironment env = environment(
                Map.of(), Map.of("MANAGEMENT_TRACING_EXPORT_ZIPKIN_ENDPOINT", "http://zipkin:9411/api/v2/spans"));

        assertThat(env.getProperty("management.tracing.export.zipkin.enabled")).isNull();
        assertThat(env.getProperty("management.tracing.sampling.probability")).isEqualTo("1.0");
    }

    @Test
    void defaultsWhenOtlpEndpointOnlyThenZipkinStillOffAndEverythingSampled() {
        StandardEnvironment env = environment(
                Map.of("management.opentelemetry.tracing.export.otlp.endpoint", "http://collector:4318/v1/traces"),
                Map.of());

        assertThat(env.getProperty("management.tracing.export.zipkin.enabled")).isEqualTo("false");
        assertThat(env.getProperty("management.tracing.sampling.probability")).isEqualTo("1.0");
    }

    @Test
    void defaultsWhenSetExplicitlyThenTheSettingWins() {
        StandardEnvironment env = environment(
                Map.of(
                        "management.tracing.export.zipkin.endpoint", "http://zipkin:9411/api/v2/spans",
                        "management.tracing.sampling.probability", "0.25"),
                Map.of());

        assertThat(env.getProperty("management.tracing.sampling.probability")).isEqualTo("0.25");
    }

    @Test
    void uiUrlWhenWithoutPlaceholderOrNotHttpThenRefused() {
        assertThatThrownBy(() -> new TracingProperties(true, "http://zipkin:9411/zipkin/traces/"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{traceId}");
        assertThatThrownBy(() -> new TracingProperties(true, "javascript:alert(1)//{traceId}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new TracingProperties(true, "http://localhost:9411/zipkin/traces/{traceId}").uiUrl())
                .isEqualTo("http://localhost:9411/zipkin/traces/{traceId}");
        assertThat(new TracingProperties(true, " ").uiUrl()).isNull();
    }
}
