package io.spiffeidt.core.internal;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

// Why our own: signing inputs must be byte-identical to Go's encoding/json (HTML escaping, number and
// key order); nimbus' and Jackson's writers differ (JsonTests and the golden vectors show it).
/**
 * Strict JSON reading and Go-compatible JSON writing (docs/formats/common.md "Encodings"). Not API.
 *
 * <p>Reading: exactly one value, no trailing content, duplicate keys rejected, nesting bounded.
 * Objects become {@link LinkedHashMap} (document order), arrays {@link ArrayList}, integers
 * {@link BigInteger}, other numbers {@link BigDecimal}, {@code null} becomes Java {@code null}.
 *
 * <p>Writing: compact, map keys in iteration order (pass a sorted map for sorted keys), strings
 * escaped as Go's {@code encoding/json} does.
 *
 * <p>Thread safety: stateless.
 */
public final class Json {

    /** Deepest nesting the reader accepts. */
    public static final int MAX_NESTING = 64;

    private Json() {}

    /**
     * Parses one JSON object.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} if not exactly one JSON object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new AssertionException(ErrorCode.MALFORMED, "JSON value is not an object");
        }
        return (Map<String, Object>) v;
    }

    /**
     * Parses one JSON value.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} on any syntax error
     */
    public static Object parse(String text) {
        if (text == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing JSON");
        }
        Reader r = new Reader(text);
        r.ws();
        Object v = r.value(0);
        r.ws();
        if (r.pos != text.length()) {
            throw new AssertionException(ErrorCode.MALFORMED, "trailing content after JSON value");
        }
        return v;
    }

    /** Writes a value compactly, Go-style. Accepts Map, List, CharSequence, Number, Boolean, null. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value);
        return sb.toString();
    }

    /** Appends a value compactly, Go-style. */
    public static void write(StringBuilder sb, Object value) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof CharSequence s) {
            writeString(sb, s.toString());
        } else if (value instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (value instanceof BigDecimal d) {
            sb.append(d.toPlainString());
        } else if (value instanceof Number n) {
            sb.append(n.toString());
        } else if (value instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                writeString(sb, String.valueOf(e.getKey()));
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (value instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                write(sb, l.get(i));
            }
            sb.append(']');
        } else if (value instanceof RawJson raw) {
            sb.append(raw.text());
        } else {
            throw new IllegalArgumentException(
                    "cannot write " + value.getClass().getName() + " as JSON");
        }
    }

    /** Appends a JSON string literal escaped as Go's encoding/json (HTML-safe) does. */
    public static void writeString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '<' -> sb.append("\\u003c");
                case '>' -> sb.append("\\u003e");
                case '&' -> sb.append("\\u0026");
                case '\u2028' -> sb.append("\\u2028");
                case '\u2029' -> sb.append("\\u2029");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00")
                                .append(Character.forDigit(c >> 4, 16))
                                .append(Character.forDigit(c & 0xF, 16));
                    } else if (Character.isHighSurrogate(c)
                            && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        sb.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        sb.append("\\ufffd");
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    /** Already-encoded JSON text, written verbatim. */
    public record RawJson(String text) {}

    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        AssertionException error(String what) {
            return new AssertionException(ErrorCode.MALFORMED, "invalid JSON: " + what + " at offset " + pos);
        }

        void ws() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    pos++;
                } else {
                    break;
                }
            }
        }

        Object value(int depth) {
            if (depth > MAX_NESTING) {
                throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "JSON nesting too deep");
            }
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object(depth);
                case '[':
                    return array(depth);
                case '"':
                    return string();
                case 't':
                    literal("true");
                    return Boolean.TRUE;
                case 'f':
                    literal("false");
                    return Boolean.FALSE;
                case 'n':
                    literal("null");
                    return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected character");
            }
        }

        void literal(String word) {
            if (!s.startsWith(word, pos)) {
                throw error("bad literal");
            }
            pos += word.length();
        }

        Map<String, Object> object(int depth) {
            pos++;
            Map<String, Object> m = new LinkedHashMap<>();
            ws();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return m;
            }
            while (true) {
                ws();
                if (pos >= s.length() || s.charAt(pos) != '"') {
                    throw error("expected key");
                }
                String key = string();
                ws();
                expect(':');
                ws();
                Object v = value(depth + 1);
                if (m.containsKey(key)) {
                    throw new AssertionException(ErrorCode.MALFORMED, "duplicate JSON key");
                }
                m.put(key, v);
                ws();
                if (pos >= s.length()) {
                    throw error("unexpected end");
                }
                char c = s.charAt(pos++);
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("expected , or }");
                }
            }
        }

        List<Object> array(int depth) {
            pos++;
            List<Object> l = new ArrayList<>();
            ws();
            if (pos < s.length() && s.charAt(pos) == ']') {
                pos++;
                return l;
            }
            while (true) {
                ws();
                l.add(value(depth + 1));
                ws();
                if (pos >= s.length()) {
                    throw error("unexpected end");
                }
                char c = s.charAt(pos++);
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    throw error("expected , or ]");
                }
            }
        }

        void expect(char c) {
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw error("expected " + c);
            }
            pos++;
        }

        String string() {
            pos++;
            int start = pos;
            int end = s.length();
            while (pos < end) { // a string without escapes (base64, names, URIs) is one substring
                char c = s.charAt(pos);
                if (c == '"') {
                    pos++;
                    return s.substring(start, pos - 1);
                }
                if (c == '\\' || c < 0x20) {
                    break;
                }
                pos++;
            }
            // an escape, a control character or no closing quote ahead: character by character from here
            StringBuilder sb = new StringBuilder(pos - start + 16).append(s, start, pos);
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw error("control character in string");
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case '/' -> sb.append('/');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short unicode escape");
                        }
                        int cp = 0;
                        for (int i = 0; i < 4; i++) {
                            int d = Character.digit(s.charAt(pos + i), 16);
                            if (d < 0) {
                                throw error("bad unicode escape");
                            }
                            cp = (cp << 4) | d;
                        }
                        pos += 4;
                        sb.append((char) cp);
                    }
                    default -> throw error("bad escape");
                }
            }
        }

        Number number() {
            int start = pos;
            if (s.charAt(pos) == '-') {
                pos++;
            }
            if (pos >= s.length()) {
                throw error("bad number");
            }
            if (s.charAt(pos) == '0') {
                pos++;
            } else if (s.charAt(pos) >= '1' && s.charAt(pos) <= '9') {
                while (pos < s.length() && Character.isDigit(s.charAt(pos)) && s.charAt(pos) < 128) {
                    pos++;
                }
            } else {
                throw error("bad number");
            }
            boolean integral = true;
            if (pos < s.length() && s.charAt(pos) == '.') {
                integral = false;
                pos++;
                int d = pos;
                while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                    pos++;
                }
                if (d == pos) {
                    throw error("bad fraction");
                }
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                integral = false;
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    pos++;
                }
                int d = pos;
                while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                    pos++;
                }
                if (d == pos) {
                    throw error("bad exponent");
                }
            }
            String lit = s.substring(start, pos);
            if (lit.length() > 64) {
                throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "number literal too long");
            }
            try {
                return integral ? new BigInteger(lit) : new BigDecimal(lit);
            } catch (NumberFormatException | ArithmeticException e) {
                throw error("number out of range");
            }
        }
    }
}
