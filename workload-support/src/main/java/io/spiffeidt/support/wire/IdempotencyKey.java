package io.spiffeidt.support.wire;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code Idempotency-Key} request header of a deposit (draft-ietf-httpapi-idempotency-key-header,
 * "Syntax"): an RFC 8941 Item whose value is a String ({@code "8e03978e-40d5"}), here without
 * parameters, 1 to {@value #MAX_LENGTH} characters once unescaped. Written by hand because no kept
 * library parses structured fields; the grammar of an sf-string is four lines. Each tier parses the
 * header it receives with {@link #parse} and forwards {@link #headerValue()} (docs/formats/common.md
 * "Idempotent deposits").
 *
 * <p>Thread safety: immutable.
 *
 * @param value the key, printable ASCII, never empty
 */
public record IdempotencyKey(String value) {

    /** The header's name. */
    public static final String HEADER = "Idempotency-Key";

    /** The longest accepted key, in characters (all ASCII, so also bytes). */
    public static final int MAX_LENGTH = 255;

    /**
     * Checks the key.
     *
     * @throws AssertionException {@link ErrorCode#IDEMPOTENCY_KEY_INVALID} if empty, too long or not
     *     printable ASCII
     */
    public IdempotencyKey {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw invalid("is empty");
        }
        if (value.length() > MAX_LENGTH) {
            throw invalid("is longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw invalid("contains a character outside printable ASCII");
            }
        }
    }

    /**
     * The key of a header value, or empty when the header is absent (a deposit without a key keeps
     * its behaviour of every try being applied).
     *
     * @param header the header's value as received (several headers joined by commas), or null
     * @throws AssertionException {@link ErrorCode#IDEMPOTENCY_KEY_INVALID} if present but not one
     *     sf-string of 1 to {@value #MAX_LENGTH} characters
     */
    public static Optional<IdempotencyKey> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        // RFC 8941 section 4.2: leading and trailing spaces are discarded
        String field = header.strip();
        if (field.length() < 2 || field.charAt(0) != '"') {
            throw invalid("is not a structured-field string");
        }
        StringBuilder key = new StringBuilder(field.length());
        int i = 1;
        while (true) {
            if (i >= field.length()) {
                throw invalid("is not a structured-field string (no closing quote)");
            }
            char c = field.charAt(i++);
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                // section 4.2.5: only \" and \\ are escapes
                if (i >= field.length() || (field.charAt(i) != '"' && field.charAt(i) != '\\')) {
                    throw invalid("is not a structured-field string (bad escape)");
                }
                c = field.charAt(i++);
            } else if (c < 0x20 || c > 0x7e) {
                throw invalid("contains a character outside printable ASCII");
            }
            key.append(c);
        }
        if (i != field.length()) {
            throw invalid("is not one structured-field string without parameters");
        }
        return Optional.of(new IdempotencyKey(key.toString()));
    }

    /** The key as an sf-string, to forward downstream. */
    public String headerValue() {
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    @Override
    public String toString() {
        // a key is the client's, not a secret, but it is not ours to log either
        return "IdempotencyKey[" + value.length() + " characters]";
    }

    private static AssertionException invalid(String why) {
        return new AssertionException(ErrorCode.IDEMPOTENCY_KEY_INVALID, HEADER + " " + why);
    }
}
