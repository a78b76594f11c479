package io.spiffeidt.asserting;

import io.spiffeidt.support.WorkloadApplications;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The asserting workload: verifies the user's OAuth token and mints the documents. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AssertingWorkloadApplication {

    /** The configuration file name ({@code asserting-wl.yml}); several workloads share one JVM, and
     * the profiles workload-support ships apply ({@link WorkloadApplications}). */
    public static final String CONFIG_NAME = "asserting-wl";

    public static void main(String[] args) {
        WorkloadApplications.run(AssertingWorkloadApplication.class, CONFIG_NAME, args);
    }
}
