package io.spiffeidt.mtier;

import io.spiffeidt.support.WorkloadApplications;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The middle tier: validates, extends and forwards to the target workload. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MiddleTierApplication {

    /** The configuration file name ({@code m-tier.yml}); several workloads share one JVM, and
     * the profiles workload-support ships apply ({@link WorkloadApplications}). */
    public static final String CONFIG_NAME = "m-tier";

    public static void main(String[] args) {
        WorkloadApplications.run(MiddleTierApplication.class, CONFIG_NAME, args);
    }
}
