package io.spiffeidt.support.server;

/**
 * The header rules of Spring Security's {@code StrictHttpFirewall}, checked by a loop over the code
 * points instead of a regular expression: a header name whose every code point is assigned and none
 * a control character, a header value the same but for a tab. Tomcat reads header bytes as ISO-8859-1,
 * so a C1 control byte (0x80 to 0x9F) arrives as a control character and is refused here. A regular
 * expression per character of the user's access token (about a kilobyte in every API request) was
 * 4 % of the whole embedded stack's CPU; this loop takes the printable ASCII fast path for it. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class HeaderCharacters {

    private HeaderCharacters() {}

    /** The firewall's rule of header names: every code point assigned, none a control character. */
    public static boolean allowedName(String name) {
        return allowed(name, false);
    }

    /** The firewall's rule of header values: every code point assigned, none a control but a tab. */
    public static boolean allowedValue(String value) {
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
