package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

// Why our own: LSVID has one canonical encoding that Go's encoding/json defines (declaration order,
// omit-when-empty, std base64 bytes); no library writes or checks it (LsvidVectorsTests show it).
/**
 * Encodes and decodes LSVID documents in their one canonical form (docs/formats/lsvid.md "Structure"):
 * base64url (no padding) of the compact JSON of the wrapper, members in declaration order,
 * omitted when empty, {@code signature} and {@code bundle} always written, byte fields as std
 * base64, map keys sorted, strings escaped as Go's {@code encoding/json} does.
 *
 * <p>The decoder checks the size limit first, then decodes strictly, bounds the JSON nesting
 * before parsing (a deeply nested input fails fast with {@link ErrorCode#LIMIT_EXCEEDED}, it is
 * never descended into), parses, bounds the chain depth, re-serializes what it parsed and requires
 * equality with the decoded text: any other spelling of the same content (whitespace, member
 * order, escapes, {@code null} for an absent member, duplicate or case-variant keys, unknown
 * members) is {@link ErrorCode#MALFORMED}. Every signing input is therefore deterministic.
 *
 * <p>Thread safety: stateless; all methods may be called concurrently.
 */
public final class LsvidCodec {

    /** JSON nesting a document may have beyond its chain depth (wrapper, payload, claims). */
    static final int STRUCTURE_NESTING = 16;

    private LsvidCodec() {}

    /** The canonical encoded form: base64url (no padding) of {@link #json(Lsvid)}. */
    public static String encode(Lsvid lsvid) {
        return Codec.b64url(json(lsvid));
    }

    /** The canonical JSON text of the wrapper. */
    public static String json(Lsvid lsvid) {
        Objects.requireNonNull(lsvid, "lsvid");
        return LsvidJsonWriter.document(lsvid, null);
    }

    /** The canonical JSON text of one token (with its signature). */
    public static String json(LsvidToken token) {
        return LsvidJsonWriter.token(Objects.requireNonNull(token, "token"), true);
    }

    /** The canonical JSON text of one payload. */
    public static String json(LsvidPayload payload) {
        return LsvidJsonWriter.payload(Objects.requireNonNull(payload, "payload"));
    }

    /**
     * The bytes a token's signature covers: for a base token the compact JSON of its payload; for
     * an extension layer the compact JSON of {@code {"nested":<nested>,"payload":<payload>,
     * "signature":null}} (docs/formats/lsvid.md "Base document" and "Extension layer").
     */
    public static byte[] signingInput(LsvidToken token) {
        Objects.requireNonNull(token, "token");
        String text = token.isBase() ? LsvidJsonWriter.payload(token.payload()) : LsvidJsonWriter.token(token, false);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes with the default {@link Limits}. */
    public static Lsvid decode(String encoded) {
        return decode(encoded, Limits.defaults());
    }

    /**
     * Decodes a canonical LSVID.
     *
     * @throws AssertionException {@link ErrorCode#LIMIT_EXCEEDED} for an oversize, too deep or
     *     over-long input; {@link ErrorCode#MALFORMED} for anything that is not the canonical
     *     encoding of an LSVID
     */
    public static Lsvid decode(String encoded, Limits limits) {
        return decodeForVerification(encoded, limits).lsvid();
    }

    /** The encoded size in bytes of {@code lsvid}, without building the string. */
    public static int encodedSize(Lsvid lsvid) {
        return b64urlLength(utf8Length(json(lsvid), 0, -1));
    }

    /**
     * The encoded size in bytes at every depth of the document's chain: element {@code d - 1} is
     * the size of the document cut down to its {@code d} innermost tokens (same bundle). For
     * metrics and benchmarks (docs/formats/lsvid.md "Size").
     */
    public static int[] encodedSizesByDepth(Lsvid lsvid) {
        LsvidJsonWriter.Marks marks = new LsvidJsonWriter.Marks(lsvid.depth());
        String text = LsvidJsonWriter.document(lsvid, marks);
        int n = marks.start.length;
        int outer = utf8Length(text, 0, marks.start[0]) + utf8Length(text, marks.end[0], text.length());
        int[] sizes = new int[n];
        for (int i = 0; i < n; i++) {
            int tokenBytes = utf8Length(text, marks.start[i], marks.end[i]);
            sizes[n - 1 - i] = b64urlLength(outer + tokenBytes);
        }
        return sizes;
    }

    /** Decoded document, its canonical text, and the token offsets (index 0 = outermost). */
    record Decoded(Lsvid lsvid, String json, LsvidJsonWriter.Marks marks, List<LsvidToken> chain, int encodedSize) {

        /** The exact bytes the signature of chain token {@code index} covers. */
        byte[] signingInput(int index) {
            if (index == chain.size() - 1) {
                return json.substring(marks.payloadStart[index], marks.payloadEnd[index])
                        .getBytes(StandardCharsets.UTF_8);
            }
            String head = json.substring(marks.start[index], marks.signatureStart[index]);
            return (head + "null}").getBytes(StandardCharsets.UTF_8);
        }

        /** The canonical text of chain token {@code index}. */
        String tokenJson(int index) {
            return json.substring(marks.start[index], marks.end[index]);
        }

        /** Whether the canonical text of chain token {@code index} is {@code text}. */
        boolean tokenJsonEquals(int index, String text) {
            int start = marks.start[index];
            return marks.end[index] - start == text.length() && json.regionMatches(start, text, 0, text.length());
        }
    }

    static Decoded decodeForVerification(String encoded, Limits limits) {
        Objects.requireNonNull(limits, "limits");
        if (encoded == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing LSVID");
        }
        limits.checkEncodedSize(encoded.length());
        String text = Codec.utf8(Codec.fromB64url(encoded));
        checkNesting(text, limits.maxDepth() + STRUCTURE_NESTING);
        Map<String, Object> parsed = Json.parseObject(text);
        Lsvid lsvid = LsvidJsonReader.document(parsed, limits);
        int depth = lsvid.depth();
        limits.checkDepth(depth);
        if (lsvid.bundle() != null) {
            limits.checkDepth(lsvid.bundle().depth());
        }
        LsvidJsonWriter.Marks marks = new LsvidJsonWriter.Marks(depth);
        String canonical = LsvidJsonWriter.document(lsvid, marks);
        if (!canonical.equals(text)) {
            throw new AssertionException(ErrorCode.MALFORMED, "LSVID JSON is not in canonical form");
        }
        List<LsvidToken> chain = new ArrayList<>(depth);
        for (LsvidToken t = lsvid.token(); t != null; t = t.nested()) {
            chain.add(t);
        }
        return new Decoded(lsvid, text, marks, List.copyOf(chain), encoded.length());
    }

    /** Fails fast, before any parsing, when brackets nest deeper than {@code bound}. */
    private static void checkNesting(String text, int bound) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                if (++depth > bound) {
                    throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "LSVID nested deeper than the limit");
                }
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
    }

    private static int b64urlLength(int bytes) {
        return (bytes * 4 + 2) / 3;
    }

    private static int utf8Length(String s, int from, int to) {
        int end = to < 0 ? s.length() : to;
        int n = 0;
        for (int i = from; i < end; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
