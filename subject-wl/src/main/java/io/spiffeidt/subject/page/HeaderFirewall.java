package io.spiffeidt.subject.page;

import io.spiffeidt.support.server.HeaderCharacters;
import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's {@link StrictHttpFirewall} with its default header rules, checked by {@link
 * HeaderCharacters} (a loop over the code points) instead of a regular expression per character.
 * Same decisions, checked in {@code HeaderFirewallTests} against the stock firewall. A refused header
 * never reaches the firewall: workload-support's {@code RequestHeaderFilter} answers it 400 first.
 *
 * <p>Thread safety: immutable.
 */
final class HeaderFirewall {

    private HeaderFirewall() {}

    /** A {@link StrictHttpFirewall} with the default rules and these header checks. */
    static StrictHttpFirewall strict() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(HeaderCharacters::allowedName);
        firewall.setAllowedHeaderValues(HeaderCharacters::allowedValue);
        return firewall;
    }

    /** The default rule of header names (see {@link HeaderCharacters#allowedName}). */
    static boolean allowedName(String name) {
        return HeaderCharacters.allowedName(name);
    }

    /** The default rule of header values (see {@link HeaderCharacters#allowedValue}). */
    static boolean allowedValue(String value) {
        return HeaderCharacters.allowedValue(value);
    }
}
