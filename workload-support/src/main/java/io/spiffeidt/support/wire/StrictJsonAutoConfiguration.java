package io.spiffeidt.support.wire;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/** Strict binding of every JSON body a workload reads (see {@link StrictJson}). */
@AutoConfiguration
public class StrictJsonAutoConfiguration {

    /** No coercion, no duplicate keys, no unknown fields. */
    @Bean
    public StrictJson spiffeIdtStrictJson() {
        return new StrictJson();
    }
}
