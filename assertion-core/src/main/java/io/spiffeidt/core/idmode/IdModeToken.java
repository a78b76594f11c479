package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A parsed ID-Mode token: the dot format of docs/formats/id-mode.md "Wire format",
 * {@code P(L-1) . … . P(0) . S(0) . … . S(L-1)}, read by segment arithmetic.
 *
 * <p>Layers are indexed from the root: layer 0 is the asserting workload's root, layer {@code
 * depth()-1} the outermost (newest). Layer {@code k} has its payload in segment {@code L-1-k}, its
 * signature in segment {@code L+k}, and signs the received text of segments {@code L-1-k … L+k-1}
 * (for the root: just {@code P(0)}). Nothing is ever re-serialized: signing inputs and prefixes
 * are substrings of the received text.
 *
 * <p>{@link #parse} performs step 1 of docs/formats/id-mode.md "Verification": limits, split, even
 * segment count {@code N ≥ 2}, depth limit, every segment non-empty strict base64url, every
 * payload exactly one JSON object with typed claims. It checks no signature, certificate or time.
 *
 * <p>Thread safety: immutable.
 */
public final class IdModeToken {

    private final String text;
    private final byte[] ascii;
    private final int depth;
    private final int[] starts;
    private final int[] ends;
    private final List<IdModeClaims> claims;
    private final byte[][] signatures;
    private final Limits limits;

    private IdModeToken(
            String text,
            byte[] ascii,
            int depth,
            int[] starts,
            int[] ends,
            List<IdModeClaims> claims,
            byte[][] sigs,
            Limits limits) {
        this.text = text;
        this.limits = limits;
        this.ascii = ascii;
        this.depth = depth;
        this.starts = starts;
        this.ends = ends;
        this.claims = claims;
        this.signatures = sigs;
    }

    /**
     * Parses a token (docs/formats/id-mode.md "Verification", step 1). Cheap checks come first: the
     * encoded size, then the segment count and the depth limit, before any decoding.
     *
     * @throws AssertionException {@link ErrorCode#LIMIT_EXCEEDED} for size or depth, {@link
     *     ErrorCode#MALFORMED} for anything that does not decode
     */
    public static IdModeToken parse(String text, Limits limits) {
        Objects.requireNonNull(limits, "limits");
        if (text == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing token");
        }
        limits.checkEncodedSize(text.length());
        int segments = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '.') {
                segments++;
            }
        }
        if (segments % 2 != 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "odd number of token segments");
        }
        int depth = segments / 2;
        limits.checkDepth(depth);
        int[] starts = new int[segments];
        int[] ends = new int[segments];
        int pos = 0;
        for (int s = 0; s < segments; s++) {
            int dot = text.indexOf('.', pos);
            int end = dot < 0 ? text.length() : dot;
            if (end == pos) {
                throw new AssertionException(ErrorCode.MALFORMED, "empty token segment");
            }
            starts[s] = pos;
            ends[s] = end;
            pos = end + 1;
        }
        List<IdModeClaims> claims = new ArrayList<>(depth);
        byte[][] sigs = new byte[depth][];
        for (int k = 0; k < depth; k++) {
            int p = depth - 1 - k;
            byte[] payload = decode(text.substring(starts[p], ends[p]), k);
            String json = Codec.utf8(payload);
            claims.add(IdModeClaims.fromJson(IdModeJson.parseObject(json, k), limits, k));
            int sIdx = depth + k;
            sigs[k] = decode(text.substring(starts[sIdx], ends[sIdx]), k);
        }
        // every character is now known to be base64url or '.', hence ASCII
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        return new IdModeToken(text, ascii, depth, starts, ends, List.copyOf(claims), sigs, limits);
    }

    /** The depth and the outermost layer's claims of a token. */
    record Outermost(int depth, IdModeClaims claims) {}

    /**
     * Reads only what extending a token the caller has verified needs (no decoding of
     * every layer again): the segment structure and characters are checked as {@link #parse} does,
     * and only the outermost payload is decoded.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    static Outermost outermost(String text, Limits limits) {
        Objects.requireNonNull(limits, "limits");
        if (text == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing token");
        }
        limits.checkEncodedSize(text.length());
        int segments = 1;
        int firstDot = -1;
        char prev = '.';
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.') {
                if (prev == '.') {
                    throw new AssertionException(ErrorCode.MALFORMED, "empty token segment");
                }
                if (firstDot < 0) {
                    firstDot = i;
                }
                segments++;
            } else if (!((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_')) {
                throw new AssertionException(ErrorCode.MALFORMED, "segment is not strict base64url");
            }
            prev = c;
        }
        if (prev == '.') {
            throw new AssertionException(ErrorCode.MALFORMED, "empty token segment");
        }
        if (segments % 2 != 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "odd number of token segments");
        }
        int depth = segments / 2;
        limits.checkDepth(depth);
        int outer = depth - 1;
        byte[] payload = decode(text.substring(0, firstDot), outer);
        IdModeClaims claims = IdModeClaims.fromJson(IdModeJson.parseObject(Codec.utf8(payload), outer), limits, outer);
        return new Outermost(depth, claims);
    }

    private static byte[] decode(String segment, int layer) {
        try {
            return Codec.fromB64url(segment);
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "segment is not strict base64url");
        }
    }

    /** Whether this token was parsed under exactly {@code limits} (so that it need not be parsed again under them). */
    boolean parsedUnder(Limits limits) {
        return this.limits.equals(limits);
    }

    /** The received token text. */
    public String text() {
        return text;
    }

    /** The number of layers {@code L} (half the segment count). */
    public int depth() {
        return depth;
    }

    /** The encoded size in bytes (the token is ASCII). */
    public int encodedSize() {
        return ascii.length;
    }

    /** The typed claims of layer {@code layer} (0 = root). */
    public IdModeClaims claims(int layer) {
        return claims.get(checkLayer(layer));
    }

    /** The claims of every layer, root first. */
    public List<IdModeClaims> allClaims() {
        return claims;
    }

    /** The DER signature of layer {@code layer} (0 = root); a copy. */
    public byte[] signature(int layer) {
        return signatures[checkLayer(layer)].clone();
    }

    /** The base64url payload segment {@code P(layer)} as received. */
    public String payloadSegment(int layer) {
        int p = depth - 1 - checkLayer(layer);
        return text.substring(starts[p], ends[p]);
    }

    /** The base64url signature segment {@code S(layer)} as received. */
    public String signatureSegment(int layer) {
        int s = depth + checkLayer(layer);
        return text.substring(starts[s], ends[s]);
    }

    /**
     * The text layer {@code layer} signed: {@code P(0)} for the root, {@code P(k) "." T(k-1)}
     * otherwise, taken from the received text.
     */
    public String signingInput(int layer) {
        return text.substring(signingInputStart(layer), signingInputEnd(layer));
    }

    /**
     * What identifies the root document this token is built on, in a form its holder cannot
     * rewrite: the SHA-256 (base64url, no padding) of the root's payload segment {@code P(0)}, which
     * is exactly what the root's signer signed and names that signer in {@code iss}. The root text
     * {@code P(0).S(0)} is no such identifier: an ECDSA signature {@code (r, s)} has a second valid
     * form {@code (r, n - s)}, so a holder can turn one valid root into another valid text
     * (docs/formats/id-mode.md, "Introspection"). Introspection records are kept under this value.
     */
    public String rootId() {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(payloadSegment(0).getBytes(StandardCharsets.US_ASCII));
            return Codec.b64url(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /**
     * The inner token {@code T(depth-1)} made of the innermost {@code depth} layers, as received:
     * every such prefix is itself a validly signed token (the prefix property).
     */
    public String prefix(int prefixDepth) {
        if (prefixDepth < 1 || prefixDepth > depth) {
            throw new IndexOutOfBoundsException("prefix depth " + prefixDepth + " of " + depth);
        }
        return text.substring(starts[depth - prefixDepth], ends[depth + prefixDepth - 1]);
    }

    int signingInputStart(int layer) {
        return starts[depth - 1 - checkLayer(layer)];
    }

    int signingInputEnd(int layer) {
        return ends[depth - 1 + checkLayer(layer)];
    }

    /** The ASCII bytes of the whole text; not copied, never hand out. */
    byte[] asciiBytes() {
        return ascii;
    }

    byte[] signatureBytes(int layer) {
        return signatures[layer];
    }

    private int checkLayer(int layer) {
        if (layer < 0 || layer >= depth) {
            throw new IndexOutOfBoundsException("layer " + layer + " of " + depth);
        }
        return layer;
    }

    @Override
    public String toString() {
        return "IdModeToken[depth=" + depth + ", size=" + ascii.length + "]";
    }
}
