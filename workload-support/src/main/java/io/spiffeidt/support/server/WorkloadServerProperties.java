package io.spiffeidt.support.server;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The inbound server of a workload ({@code spiffeidt.server.*}).
 *
 * @param mtls whether the server port serves SPIFFE mTLS (subject-wl's user port is plain HTTP)
 */
@ConfigurationProperties("spiffeidt.server")
public record WorkloadServerProperties(@DefaultValue("true") boolean mtls) {}
