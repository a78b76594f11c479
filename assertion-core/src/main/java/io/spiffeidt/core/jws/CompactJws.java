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
        Segments parts = split(compact);
        return new CompactJws(
                object(parts.header(), "header"),
                object(parts.payload(), "payload"),
                parts.signingInput(),
                Codec.fromB64url(parts.signature()));
    }

    /**
     * Splits a compact JWS into its three segments without decoding any (thread safe, stateless):
     * for a verifier that checks the header before it reads the payload.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the text is not three segments
     */
    public static Segments split(String compact) {
        if (compact == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing JWS");
        }
        int dot1 = compact.indexOf('.');
        int dot2 = dot1 < 0 ? -1 : compact.indexOf('.', dot1 + 1);
        if (dot2 < 0 || compact.indexOf('.', dot2 + 1) >= 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a compact JWS (three segments)");
        }
        return new Segments(compact.substring(0, dot1), compact.substring(dot1 + 1, dot2), compact.substring(dot2 + 1));
    }

    /**
     * The three base64url segments of a compact JWS, as received.
     *
     * @param header the encoded header
     * @param payload the encoded payload
     * @param signature the encoded signature
     */
    public record Segments(String header, String payload, String signature) {

        /** {@code header "." payload}, the input of the signature. */
        public String signingInput() {
            return header + "." + payload;
        }

        /** Whether no segment is empty. */
        public boolean complete() {
            return !header.isEmpty() && !payload.isEmpty() && !signature.isEmpty();
        }
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
