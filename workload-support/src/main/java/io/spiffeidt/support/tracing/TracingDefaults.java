package io.spiffeidt.support.tracing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The defaults of docs/tracing.md, below every other property source (so any setting wins): spans
 * are exported only where an endpoint is configured, and then all of them. Boot exports to Zipkin at
 * {@code localhost:9411} as soon as the Zipkin exporter is on the class path, which would fill the
 * log with connection errors where no Zipkin runs; and it samples one trace in ten, which would
 * leave most requests of a demonstration without their trace.
 *
 * <ul>
 *   <li>{@code management.tracing.export.zipkin.enabled=false} unless {@value #ZIPKIN_ENDPOINT} is
 *       set (OTLP is already off unless {@value #OTLP_ENDPOINT} is set);
 *   <li>{@code management.tracing.sampling.probability}: {@code 1.0} when an endpoint is set, else
 *       {@code 0.0} (spans are then not recorded, but trace ids still travel in {@code traceparent}).
 * </ul>
 *
 * <p>Runs right after the configuration files are loaded. Thread safety: stateless.
 */
public class TracingDefaults implements EnvironmentPostProcessor, Ordered {

    /** Boot's Zipkin endpoint. */
    static final String ZIPKIN_ENDPOINT = "management.tracing.export.zipkin.endpoint";

    /** Boot's OTLP trace endpoint. */
    static final String OTLP_ENDPOINT = "management.opentelemetry.tracing.export.otlp.endpoint";

    /** The name of the property source of these defaults. */
    static final String SOURCE = "spiffeidtTracingDefaults";

    /** Deprecated spellings Boot still reads. */
    private static final List<String> OLD_ZIPKIN = List.of("management.zipkin.tracing.endpoint");

    private static final List<String> OLD_OTLP = List.of("management.otlp.tracing.endpoint");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Binder binder = Binder.get(environment);
        boolean zipkin = anySet(binder, ZIPKIN_ENDPOINT, OLD_ZIPKIN);
        boolean otlp = anySet(binder, OTLP_ENDPOINT, OLD_OTLP);
        Map<String, Object> defaults = new LinkedHashMap<>();
        if (!zipkin) {
            defaults.put("management.tracing.export.zipkin.enabled", "false");
        }
        defaults.put("management.tracing.sampling.probability", zipkin || otlp ? "1.0" : "0.0");
        environment.getPropertySources().remove(SOURCE);
        environment.getPropertySources().addLast(new MapPropertySource(SOURCE, defaults));
    }

    private static boolean anySet(Binder binder, String name, List<String> others) {
        if (isSet(binder, name)) {
            return true;
        }
        for (String other : others) {
            if (isSet(binder, other)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSet(Binder binder, String name) {
        return binder.bind(name, String.class).map(v -> !v.isBlank()).orElse(false);
    }

    @Override
    public int getOrder() {
        return ConfigDataEnvironmentPostProcessor.ORDER + 1;
    }
}
