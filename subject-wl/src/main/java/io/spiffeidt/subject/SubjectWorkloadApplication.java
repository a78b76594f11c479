package io.spiffeidt.subject;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The subject workload: the user-facing front end that obtains and uses the documents. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SubjectWorkloadApplication {

    /** The configuration file name ({@code subject-wl.yml}); several workloads share one JVM. */
    public static final String CONFIG_NAME = "subject-wl";

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(SubjectWorkloadApplication.class);
        app.setDefaultProperties(java.util.Map.of("spring.config.name", CONFIG_NAME));
        app.run(args);
    }
}
