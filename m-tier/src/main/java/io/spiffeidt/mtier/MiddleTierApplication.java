package io.spiffeidt.mtier;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The middle tier: validates, extends and forwards to the target workload. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MiddleTierApplication {

    /** The configuration file name ({@code m-tier.yml}); several workloads share one JVM. */
    public static final String CONFIG_NAME = "m-tier";

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(MiddleTierApplication.class);
        app.setDefaultProperties(java.util.Map.of("spring.config.name", CONFIG_NAME));
        app.run(args);
    }
}
