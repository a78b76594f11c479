package io.spiffeidt.support.testapp;

import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.testing.TestIdentities;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/** A workload for the integration tests: runs as target-wl with an in-memory SVID. */
@SpringBootApplication
public class TestWorkloadApplication {

    /** The server's SVID source (target-wl). */
    @Bean
    public X509Source x509Source() {
        return TestIdentities.source(Role.TARGET_WL);
    }
}
