package io.spiffeidt.subject.page;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * Spring Security's {@link StrictHttpFirewall} with its default header rules, checked by a loop over
 * the code points instead of a regular expression. The defaults accept a header name whose every
 * code point is assigned and no control character, and a header value whose every code point is
 * assigned and no control character other than a tab; the firewall checks each header value a
 * controller reads, and a regular expression per character of the user's access token (about a
 * kilobyte in every API request) was 4 % of the whole embedded stack's CPU (issue 28). Same
 * decisions, checked in {@code HeaderFirewallTests} against the stock firewall.
 *
 * <p>Thread safety: immutable.
 */
final class HeaderFirewall {

    private HeaderFirewall() {}

    /** A {@link StrictHttpFirewall} with the default rules and these header checks. */
    static StrictHttpFirewall strict() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setAllowedHeaderNames(HeaderFirewall::allowedName);
        firewall.setAllowedHeaderValues(HeaderFirewall::allowedValue);
        return firewall;
    }

    /** The default rule of header names: every code point assigned, none a control character. */
    static boolean allowedName(String name) {
        return allowed(name, false);
    }

    /** The default rule of header values: every code point assigned, none a control but a tab. */
    static boolean allowedValue(String value) {
        return allowed(value, true);
    }

    private static boolean allowed(String s, boolean tab) {
        int n = s.length();
        for (int i = 0; i < n; ) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                // printable ASCII: assigned, no control; the whole of a token and most headers
                i++;
                continue;
            }
            int cp = s.codePointAt(i);
            int type = Character.getType(cp);
            if (type == Character.UNASSIGNED || (type == Character.CONTROL && !(tab && cp == '\t'))) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }
}
