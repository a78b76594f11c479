package io.spiffeidt.core.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.util.Arrays;
import java.util.Map;

/**
 * The segment arithmetic of the Anon-Mode wire format (docs/formats/anon-mode.md "Wire format"), checked
 * before any decoding or cryptography. Not API.
 *
 * <p>After {@code L} layers: {@code P(L-1) . … . P(0) . R(0) . … . R(L-2) . F(L-1)}, so with the
 * segments {@code parts[0..2L-1]} and layers counted from the root ({@code i = 0}): payload {@code
 * parts[L-1-i]}, signature {@code parts[L+i]}, and signing input the received text of {@code
 * parts[L-1-i .. L-1+i]}.
 *
 * <p>Thread safety: immutable.
 */
final class AnonModeToken {

    /** base64url length of a 32-byte inner segment {@code R(i)}. */
    static final int INNER_SEGMENT_CHARS = 43;

    /** base64url length of the 64-byte outermost segment {@code F}. */
    static final int FINAL_SEGMENT_CHARS = 86;

    private final String text;
    private final int depth;
    private final int[] starts;
    private final int[] ends;

    private AnonModeToken(String text, int depth, int[] starts, int[] ends) {
        this.text = text;
        this.depth = depth;
        this.starts = starts;
        this.ends = ends;
    }

    /**
     * Splits a token and checks its shape: size and depth limits, an even segment count of at least
     * two, no empty segment, inner signature segments of exactly 32 bytes' and the last of exactly
     * 64 bytes' length. Segment contents are decoded later.
     *
     * @throws AssertionException {@link ErrorCode#LIMIT_EXCEEDED} or {@link ErrorCode#MALFORMED}
     */
    static AnonModeToken parse(String token, Limits limits) {
        if (token == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing token");
        }
        limits.checkEncodedSize(token.length());
        int segments = 1;
        for (int i = 0; i < token.length(); i++) {
            if (token.charAt(i) == '.') {
                segments++;
            }
        }
        if (segments < 2 || segments % 2 != 0) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, "token has " + segments + " segments, not an even count >= 2");
        }
        int depth = segments / 2;
        limits.checkDepth(depth);
        int[] starts = new int[segments];
        int[] ends = new int[segments];
        int start = 0;
        for (int s = 0; s < segments; s++) {
            int end = token.indexOf('.', start);
            if (end < 0) {
                end = token.length();
            }
            if (end == start) {
                throw new AssertionException(ErrorCode.MALFORMED, "empty segment " + s);
            }
            starts[s] = start;
            ends[s] = end;
            start = end + 1;
        }
        AnonModeToken t = new AnonModeToken(token, depth, starts, ends);
        for (int i = 0; i < depth - 1; i++) {
            if (t.segmentLength(depth + i) != INNER_SEGMENT_CHARS) {
                throw new AssertionException(ErrorCode.MALFORMED, i, "inner signature segment is not exactly 32 bytes");
            }
        }
        if (t.segmentLength(2 * depth - 1) != FINAL_SEGMENT_CHARS) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, depth - 1, "outermost signature segment is not exactly 64 bytes");
        }
        return t;
    }

    /** The number of layers {@code L}. */
    int depth() {
        return depth;
    }

    private int segmentLength(int s) {
        return ends[s] - starts[s];
    }

    private String segment(int s) {
        return text.substring(starts[s], ends[s]);
    }

    /** The base64url payload segment {@code P(i)} of layer {@code i} (0 = root). */
    String payloadSegment(int layer) {
        return segment(depth - 1 - layer);
    }

    /**
     * The decoded claims of layer {@code i}: strict base64url, strict UTF-8, one JSON object.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED}
     */
    Map<String, Object> claims(int layer) {
        try {
            return Json.parseObject(Codec.utf8(Codec.fromB64url(payloadSegment(layer))));
        } catch (AssertionException e) {
            throw new AssertionException(e.code(), layer, "payload: " + e.getMessage());
        }
    }

    /** The signing input {@code m_i}: the received text of {@code parts[L-1-i .. L-1+i]}. */
    String signingInput(int layer) {
        return text.substring(starts[depth - 1 - layer], ends[depth - 1 + layer]);
    }

    /**
     * The encoded commitment {@code enc(R_i)} of layer {@code i}: the inner segment, or the first
     * half of the outermost one.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the segment is not base64url
     */
    byte[] commitment(int layer) {
        byte[] raw = decodeSegment(depth + layer, layer);
        return layer == depth - 1 ? Arrays.copyOfRange(raw, 0, 32) : raw;
    }

    /**
     * The encoded response {@code enc(s)} of the outermost signature (32 bytes, not yet range
     * checked).
     */
    byte[] finalResponse() {
        byte[] raw = decodeSegment(2 * depth - 1, depth - 1);
        return Arrays.copyOfRange(raw, 32, 64);
    }

    private byte[] decodeSegment(int s, int layer) {
        try {
            return Codec.fromB64url(segment(s));
        } catch (AssertionException e) {
            throw new AssertionException(e.code(), layer, "signature segment: " + e.getMessage());
        }
    }

    /** The root identifier {@code P(0) . base64url(enc(R_0))} the asserting workload records. */
    String rootIdentifier() {
        return payloadSegment(0) + "." + Codec.b64url(commitment(0));
    }

    /**
     * The token with its last segment stripped to {@code base64url(enc(R))}: what the next layer
     * signs after its payload.
     */
    String stripped() {
        int last = 2 * depth - 1;
        return text.substring(0, starts[last]) + Codec.b64url(commitment(depth - 1));
    }
}
