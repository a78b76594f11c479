package io.spiffeidt.mtier.anonmode;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Anon-Mode settings of the middle tier ({@code spiffeidt.mtier.anon-mode.*}).
 *
 * @param extend extend the verified token by one anonymous layer before forwarding it (the thesis
 *     flow; default on). Off forwards the token as received
 * @param includeIid write this workload's SPIFFE ID as {@code iid} into its layer, as the original
 *     did (default off: the point of the mode is anonymity). A token with {@code iid} verifies only
 *     under the original-compatible profile, so switching it on requires {@code
 *     spiffeidt.verification.profile=original-compatible}
 */
@ConfigurationProperties("spiffeidt.mtier.anon-mode")
public record AnonModeMtierProperties(
        @DefaultValue("true") boolean extend, @DefaultValue("false") boolean includeIid) {}
