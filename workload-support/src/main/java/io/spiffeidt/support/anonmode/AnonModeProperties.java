package io.spiffeidt.support.anonmode;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Anon-Mode settings of a workload ({@code spiffeidt.anon-mode.*}).
 *
 * @param includeIid write this workload's SPIFFE ID as {@code iid} into the layers it adds, as the
 *     original did (off by default: the point of the mode is anonymity). A token with {@code iid}
 *     verifies only under the original-compatible profile, so switching it on requires {@code
 *     spiffeidt.verification.profile=original-compatible}
 */
@ConfigurationProperties("spiffeidt.anon-mode")
public record AnonModeProperties(@DefaultValue("false") boolean includeIid) {}
