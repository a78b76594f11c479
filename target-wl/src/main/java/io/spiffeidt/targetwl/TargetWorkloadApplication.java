package io.spiffeidt.targetwl;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The target workload: final validation and the account database. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TargetWorkloadApplication {

    /** The configuration file name ({@code target-wl.yml}); several workloads share one JVM. */
    public static final String CONFIG_NAME = "target-wl";

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(TargetWorkloadApplication.class);
        app.setDefaultProperties(java.util.Map.of("spring.config.name", CONFIG_NAME));
        app.run(args);
    }
}
