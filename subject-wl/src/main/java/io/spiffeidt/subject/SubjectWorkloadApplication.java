package io.spiffeidt.subject;

import io.spiffeidt.support.WorkloadApplications;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** The subject workload: the user-facing front end that obtains and uses the documents. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SubjectWorkloadApplication {

    /** The configuration file name ({@code subject-wl.yml}); several workloads share one JVM, and
     * the profiles workload-support ships apply ({@link WorkloadApplications}). */
    public static final String CONFIG_NAME = "subject-wl";

    public static void main(String[] args) {
        WorkloadApplications.run(SubjectWorkloadApplication.class, CONFIG_NAME, args);
    }
}
