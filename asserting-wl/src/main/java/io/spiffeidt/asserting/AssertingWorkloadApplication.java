package io.spiffeidt.asserting;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The asserting workload: verifies the user's OAuth token and mints the documents. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AssertingWorkloadApplication {

    /** The configuration file name ({@code asserting-wl.yml}); several workloads share one JVM. */
    public static final String CONFIG_NAME = "asserting-wl";

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(AssertingWorkloadApplication.class);
        app.setDefaultProperties(java.util.Map.of("spring.config.name", CONFIG_NAME));
        app.run(args);
    }
}
