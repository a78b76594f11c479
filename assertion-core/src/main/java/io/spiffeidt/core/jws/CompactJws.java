package io.spiffeidt.core.jws;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The three parts of a JWS in compact serialization ({@code header.payload.signature}), decoded
 * under the rules of docs/formats/common.md: strict base64url (no padding, canonical), header and
 * payload JSON objects without duplicate names. Nothing is verified: this is how a workload reads
 * an OAuth access token before checking it, or shows a document it has received over an
 * authenticated connection.
 *
 * <p>Thread safety: immutable.
 *
 * @param header the decoded header (JSON {@code null} values kept, member order kept)
 * @param payload the decoded payload
 * @param signingInput {@code header "." payload} as received (ASCII)
 * @param signature the signature bytes (a copy is held and returned)
 */
public record CompactJws(
        Map<String, Object> header, Map<String, Object> payload, String signingInput, byte[] signature) {

    /** Copies the values. */
    public CompactJws {
        header = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(header, "header")));
        payload = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(payload, "payload")));
        Objects.requireNonNull(signingInput, "signingInput");
        signature = signature.clone();
    }

    /** The signature bytes; a copy. */
    @Override
    public byte[] signature() {
        return signature.clone();
    }

    /**
     * Decodes a compact JWS (thread safe, stateless).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the text is not three strict
     *     base64url segments, or the header or payload is not a JSON object
     */
    public static CompactJws parse(String compact) {
        if (compact == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing JWS");
        }
        String[] parts = compact.split("\\.", -1);
        if (parts.length != 3) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a compact JWS (three segments)");
        }
        return new CompactJws(
                object(parts[0], "header"),
                object(parts[1], "payload"),
                parts[0] + "." + parts[1],
                Codec.fromB64url(parts[2]));
    }

    private static Map<String, Object> object(String segment, String what) {
        byte[] bytes = Codec.fromB64url(segment);
        try {
            return Json.parseObject(Codec.utf8(bytes));
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, what + " is not a JSON object", e);
        }
    }
}
