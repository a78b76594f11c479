package io.spiffeidt.mtier.dvid;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * DVID settings of the middle tier, under the mode's one prefix {@code spiffeidt.dvid} (beside the
 * asserting workload's signer settings).
 *
 * @param introspect call the asserting workload's {@code /dvid/introspect} and verify the proof (the
 *     thesis flow)
 */
@ConfigurationProperties("spiffeidt.dvid")
public record DvidMiddleTierProperties(@DefaultValue("true") boolean introspect) {}
