package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.util.Locale;

/**
 * Where the two tokens travel in an HTTP request (docs/formats/wimse.md "Headers"): the WIT in the
 * {@code Workload-Identity-Token} header field (draft-ietf-wimse-workload-creds-02 §5.1.1), the WPT
 * in the {@code Authorization} header field with the {@code WPT} authentication scheme
 * (draft-ietf-wimse-wpt-02 §2, which replaced the {@code Workload-Proof-Token} field of -01), and
 * the Txn-Token in its own {@code Txn-Token} field.
 *
 * <p>Thread safety: stateless.
 */
public final class WimseHeaders {

    /** The header field of the WIT. */
    public static final String WORKLOAD_IDENTITY_TOKEN = "Workload-Identity-Token";

    /** The header field of the WPT. */
    public static final String AUTHORIZATION = "Authorization";

    /** The HTTP authentication scheme of the WPT (compared case-insensitively). */
    public static final String WPT_SCHEME = "WPT";

    /** The header field of the Txn-Token the WPT's {@code tth} binds. */
    public static final String TXN_TOKEN = "Txn-Token";

    private WimseHeaders() {}

    /** The {@code Authorization} value that carries {@code wpt}: {@code "WPT " + wpt}. */
    public static String authorization(String wpt) {
        return WPT_SCHEME + " " + wpt;
    }

    /**
     * The WPT of an {@code Authorization} value ({@code credentials = "WPT" 1*SP token68}, the scheme
     * case-insensitive, draft-ietf-wimse-wpt-02 §2 Figure 1).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the value is missing, another
     *     scheme, or not one token68
     */
    public static String wptFromAuthorization(String authorization) {
        if (authorization == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing Authorization header");
        }
        int space = authorization.indexOf(' ');
        if (space < 0
                || !authorization.substring(0, space).toUpperCase(Locale.ROOT).equals(WPT_SCHEME)) {
            throw new AssertionException(ErrorCode.MALFORMED, "Authorization does not use the WPT scheme");
        }
        int start = space;
        while (start < authorization.length() && authorization.charAt(start) == ' ') {
            start++;
        }
        String token = authorization.substring(start);
        if (token.isEmpty() || !isToken68(token)) {
            throw new AssertionException(ErrorCode.MALFORMED, "WPT credentials are not one token68");
        }
        return token;
    }

    private static boolean isToken68(String s) {
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~'
                    || c == '+'
                    || c == '/';
            if (!ok) {
                break;
            }
            i++;
        }
        if (i == 0) {
            return false;
        }
        while (i < s.length() && s.charAt(i) == '=') {
            i++;
        }
        return i == s.length();
    }
}
