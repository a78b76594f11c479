package io.spiffeidt.mtier.anonmode;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Anon-Mode settings of the middle tier, under the mode's one prefix {@code spiffeidt.anon-mode};
 * whether its layers carry {@code iid} is {@code spiffeidt.anon-mode.include-iid}, as in every
 * workload.
 *
 * @param extend extend the verified token by one anonymous layer before forwarding it (the thesis
 *     flow); off forwards the token as received
 */
@ConfigurationProperties("spiffeidt.anon-mode")
public record AnonModeMiddleTierProperties(@DefaultValue("true") boolean extend) {}
