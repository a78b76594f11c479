package io.spiffeidt.mtier.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the middle tier ({@code spiffeidt.mtier.*}).
 *
 * @param dvid DVID checks
 */
@ConfigurationProperties("spiffeidt.mtier")
public record MiddleTierProperties(@DefaultValue Dvid dvid) {

    /**
     * @param introspect call the asserting workload's introspection and verify the proof (the
     *     thesis flow; default on)
     */
    public record Dvid(@DefaultValue("true") boolean introspect) {}
}
