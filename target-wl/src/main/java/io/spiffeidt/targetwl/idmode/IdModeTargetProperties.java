package io.spiffeidt.targetwl.idmode;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * ID-Mode settings of the target workload, under the mode's one prefix {@code spiffeidt.id-mode}
 * (beside the asserting workload's root settings).
 *
 * @param introspect call the asserting workload's {@code /id-mode/introspect} with the root and
 *     verify the proof against the root's {@code dpa}/{@code dpr} (the thesis flow)
 */
@ConfigurationProperties("spiffeidt.id-mode")
public record IdModeTargetProperties(@DefaultValue("true") boolean introspect) {}
