package io.spiffeidt.targetwl;

import io.spiffeidt.support.WorkloadApplications;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The target workload: final validation and the account database. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class TargetWorkloadApplication {

    /** The configuration file name ({@code target-wl.yml}); several workloads share one JVM, and
     * the profiles workload-support ships apply ({@link WorkloadApplications}). */
    public static final String CONFIG_NAME = "target-wl";

    public static void main(String[] args) {
        WorkloadApplications.run(TargetWorkloadApplication.class, CONFIG_NAME, args);
    }
}
