package io.spiffeidt.support;

import java.util.Map;
import java.util.Objects;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * How a workload starts: its configuration file is named after it ({@code m-tier.yml}), so that several
 * workloads can share one JVM (the embedded stack), and the files named {@code application} are read
 * too, before its own. The latter is what makes the profiles workload-support ships apply to every
 * workload: {@code --spring.profiles.active=thesis} reads {@code application-thesis.properties} (the
 * thesis' pooling and no memo), which a workload whose only configuration name is its own would never
 * look for.
 */
public final class WorkloadApplications {

    private WorkloadApplications() {}

    /**
     * The value of {@code spring.config.name} for workload {@code name}: {@code application}, then the
     * workload's own name, which wins where both set a key. A profile's file of either name wins over
     * both (Spring Boot's order).
     */
    public static String configName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.contains(",")) {
            throw new IllegalArgumentException("a workload's configuration name is one name");
        }
        return "application," + name;
    }

    /** Runs {@code application} as workload {@code name} with the command line {@code args}. */
    public static ConfigurableApplicationContext run(Class<?> application, String name, String[] args) {
        SpringApplication app = new SpringApplication(application);
        app.setDefaultProperties(Map.of("spring.config.name", configName(name)));
        return app.run(args);
    }
}
