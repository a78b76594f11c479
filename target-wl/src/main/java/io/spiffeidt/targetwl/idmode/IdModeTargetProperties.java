package io.spiffeidt.targetwl.idmode;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * ID-Mode settings of the target workload ({@code spiffeidt.target.id-mode.*}).
 *
 * @param introspect call the asserting workload's {@code /id-mode/introspect} with the root and
 *     verify the proof against the root's {@code dpa}/{@code dpr} (the thesis flow; default on)
 */
@ConfigurationProperties("spiffeidt.target.id-mode")
public record IdModeTargetProperties(@DefaultValue("true") boolean introspect) {}
