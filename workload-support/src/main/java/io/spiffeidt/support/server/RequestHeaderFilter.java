package io.spiffeidt.support.server;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.support.wire.IdempotencyKey;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request with a header name or value that Spring Security's firewall would refuse
 * ({@link HeaderCharacters}: a control character other than a tab, an unassigned code point) before
 * any filter, controller or the firewall itself reads a header (docs/formats/common.md "Errors"). The
 * answer is 400 with a code: {@code IDEMPOTENCY_KEY_INVALID} for the {@code Idempotency-Key}, {@code
 * MALFORMED} for any other header, with {@code WWW-Authenticate: Bearer error="invalid_request"} for
 * {@code Authorization} (RFC 6750 section 3.1). The problem and the one INFO line name the header,
 * never its value: the firewall's own exception quotes the value, which for {@code Authorization} is
 * the user's access token. Not API.
 *
 * <p>Thread safety: stateless.
 */
public final class RequestHeaderFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(RequestHeaderFilter.class);

    /** The problem types' prefix, as the problem details advice writes it (a filter answers before it). */
    private static final String TYPE_PREFIX = "urn:spiffeidt:problem:";

    /** The longest header name a problem repeats; a longer one is cut. */
    static final int NAME_SHOWN = 64;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Enumeration<String> names = request.getHeaderNames();
        while (names.hasMoreElements()) {
            String name = names.nextElement();
            if (!HeaderCharacters.allowedName(name)) {
                refuse(response, null);
                return;
            }
            Enumeration<String> values = request.getHeaders(name);
            while (values.hasMoreElements()) {
                if (!HeaderCharacters.allowedValue(values.nextElement())) {
                    refuse(response, name);
                    return;
                }
            }
        }
        chain.doFilter(request, response);
    }

    /** The 400 problem of a refused header; {@code name} null when the name itself is refused. */
    private static void refuse(HttpServletResponse response, String name) throws IOException {
        String shown =
                name == null || !token(name) ? null : name.length() > NAME_SHOWN ? name.substring(0, NAME_SHOWN) : name;
        String code = name != null && name.equalsIgnoreCase(IdempotencyKey.HEADER)
                ? ErrorCode.IDEMPOTENCY_KEY_INVALID.name()
                : ErrorCode.MALFORMED.name();
        String detail = shown == null
                ? "a request header holds a character that is not allowed"
                : "the request header " + shown + " holds a character that is not allowed";
        log.info("request refused: {} ({})", detail, code);
        if (name != null && name.equalsIgnoreCase(HttpHeaders.AUTHORIZATION)) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_request\"");
        }
        StringBuilder json = new StringBuilder(256)
                .append("{\"type\":\"")
                .append(TYPE_PREFIX)
                .append(code.toLowerCase(Locale.ROOT))
                .append("\",\"title\":\"")
                .append(code)
                .append("\",\"status\":400,\"detail\":\"")
                .append(detail)
                .append("\",\"code\":\"")
                .append(code)
                .append('"');
        if (shown != null) {
            json.append(",\"header\":\"").append(shown).append('"');
        }
        byte[] body = json.append('}').toString().getBytes(StandardCharsets.UTF_8);
        response.setStatus(400);
        response.setContentType("application/problem+json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** Whether {@code name} is an RFC 9110 token, so a problem may repeat it as it is. */
    private static boolean token(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return !name.isEmpty();
    }
}
