package io.spiffeidt.subject.anonmode;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Anon-Mode settings of the subject workload ({@code spiffeidt.subject.anon-mode.*}).
 *
 * @param includeIid write this workload's SPIFFE ID as {@code iid} into its layer, as the original
 *     did (default off: the point of the mode is anonymity). A token with {@code iid} verifies only
 *     under the original-compatible profile, so switching it on requires {@code
 *     spiffeidt.verification.profile=original-compatible}
 */
@ConfigurationProperties("spiffeidt.subject.anon-mode")
public record AnonModeSubjectProperties(@DefaultValue("false") boolean includeIid) {}
