package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

// Why our own: the canonical LSVID JSON is Go's encoding/json output of the original's structs;
// no JSON library reproduces it byte for byte (LsvidVectorsTests show it).
/**
 * The canonical LSVID serializer (docs/formats/lsvid.md "Structure"): compact JSON, declaration order,
 * omit-when-empty, {@code signature} always written, std base64 byte fields, sorted map keys,
 * Go-style escaping. The {@code nested} chain is written iteratively, so a long chain cannot
 * overflow the stack; an {@code iss.id} inside a payload recurses, bounded by {@link
 * #MAX_ID_NESTING}.
 *
 * <p>While writing the main chain it records, per token (index 0 = outermost), where the token
 * starts, where its signature value starts, where it ends and where its payload starts and ends,
 * so a verifier can take each signing input from the one canonical text.
 *
 * <p>Thread safety: stateless.
 */
final class LsvidJsonWriter {

    /** Deepest {@code iss.id} inside {@code iss.id} the writer follows. */
    static final int MAX_ID_NESTING = 8;

    /** How the text of a token written without its signature ends. */
    private static final String NULL_SIGNATURE = "\"signature\":null}";

    private static final BigInteger MAX_EXACT_FLOAT = BigInteger.ONE.shiftLeft(53);

    private LsvidJsonWriter() {}

    /** Offsets of the main chain's tokens in the written text; index 0 = outermost. */
    static final class Marks {
        final int[] start;
        final int[] signatureStart;
        final int[] end;
        final int[] payloadStart;
        final int[] payloadEnd;

        Marks(int n) {
            start = new int[n];
            signatureStart = new int[n];
            end = new int[n];
            payloadStart = new int[n];
            payloadEnd = new int[n];
        }
    }

    /** The wrapper's canonical JSON; fills {@code marks} for the main chain when not null. */
    static String document(Lsvid doc, Marks marks) {
        StringBuilder sb = new StringBuilder(2048);
        sb.append("{\"token\":");
        chain(sb, doc.token(), true, marks, 0);
        sb.append(",\"bundle\":");
        if (doc.bundle() == null) {
            sb.append("null");
        } else {
            chain(sb, doc.bundle(), true, null, 0);
        }
        sb.append('}');
        return sb.toString();
    }

    /** A token's canonical JSON, with its own signature or with {@code null} in its place. */
    static String token(LsvidToken token, boolean withSignature) {
        StringBuilder sb = new StringBuilder(2048);
        chain(sb, token, withSignature, null, 0);
        return sb.toString();
    }

    /**
     * The canonical JSON of a token with {@code signature}, from the text {@link #token(LsvidToken,
     * boolean)} wrote for it without: the trailing {@code null}} becomes the signature's std base64.
     */
    static String withSignature(String unsignedJson, byte[] signature) {
        if (!unsignedJson.endsWith(NULL_SIGNATURE)) {
            throw new IllegalArgumentException("not the text of an unsigned token");
        }
        return unsignedJson.substring(0, unsignedJson.length() - "null}".length()) + '"' + Codec.b64std(signature)
                + "\"}";
    }

    /** A payload's canonical JSON. */
    static String payload(LsvidPayload payload) {
        StringBuilder sb = new StringBuilder(512);
        payload(sb, payload, 0);
        return sb.toString();
    }

    private static void chain(StringBuilder sb, LsvidToken top, boolean topSignature, Marks marks, int idNesting) {
        // Without marks to record, the first signed token whose canonical text is known ends the
        // walk: its text is appended as it is (LsvidToken#knownJson).
        List<LsvidToken> tokens = new ArrayList<>();
        String known = null;
        for (LsvidToken t = top; t != null; t = t.nested()) {
            if (marks == null && (t != top || topSignature) && t.knownJson() != null) {
                known = t.knownJson();
                break;
            }
            tokens.add(t);
        }
        int n = tokens.size();
        int from = sb.length();
        int prefixes = known == null ? n - 1 : n;
        for (int i = 0; i < prefixes; i++) {
            if (marks != null) {
                marks.start[i] = sb.length();
            }
            sb.append("{\"nested\":");
        }
        if (known == null) {
            if (marks != null) {
                marks.start[n - 1] = sb.length();
            }
            sb.append('{');
        } else {
            sb.append(known);
        }
        for (int i = n - 1; i >= 0; i--) {
            LsvidToken t = tokens.get(i);
            sb.append(i == n - 1 && known == null ? "\"payload\":" : ",\"payload\":");
            if (marks != null) {
                marks.payloadStart[i] = sb.length();
            }
            payload(sb, t.payload(), idNesting);
            if (marks != null) {
                marks.payloadEnd[i] = sb.length();
            }
            sb.append(",\"signature\":");
            if (marks != null) {
                marks.signatureStart[i] = sb.length();
            }
            byte[] sig = (i == 0 && !topSignature) ? null : t.signatureRaw();
            if (sig == null) {
                sb.append("null");
            } else {
                sb.append('"').append(Codec.b64std(sig)).append('"');
            }
            sb.append('}');
            if (marks != null) {
                marks.end[i] = sb.length();
            }
        }
        if (topSignature && n > 0) {
            top.rememberJson(sb.substring(from));
        }
    }

    private static void payload(StringBuilder sb, LsvidPayload p, int idNesting) {
        Fields f = new Fields(sb);
        if (p.ver() != 0) {
            f.name("ver").append(p.ver());
        }
        if (notEmpty(p.alg())) {
            Json.writeString(f.name("alg"), p.alg());
        }
        if (p.iat() != 0) {
            f.name("iat").append(p.iat());
        }
        if (p.exp() != 0) {
            f.name("exp").append(p.exp());
        }
        if (p.iss() != null) {
            idClaim(f.name("iss"), p.iss(), idNesting);
        }
        if (p.sub() != null) {
            idClaim(f.name("sub"), p.sub(), idNesting);
        }
        if (p.aud() != null) {
            idClaim(f.name("aud"), p.aud(), idNesting);
        }
        if (notEmpty(p.dpa())) {
            Json.writeString(f.name("dpa"), p.dpa());
        }
        if (notEmpty(p.dpr())) {
            Json.writeString(f.name("dpr"), p.dpr());
        }
        if (!p.sel().isEmpty()) {
            sortedValue(f.name("sel"), p.sel(), 0);
        }
        if (!p.data().isEmpty()) {
            sortedValue(f.name("data"), p.data(), 0);
        }
        sb.append('}');
    }

    private static void idClaim(StringBuilder sb, IdClaim c, int idNesting) {
        Fields f = new Fields(sb);
        if (notEmpty(c.cn())) {
            Json.writeString(f.name("cn"), c.cn());
        }
        byte[] pk = c.pkRaw();
        if (pk != null && pk.length > 0) {
            f.name("pk").append('"').append(Codec.b64std(pk)).append('"');
        }
        List<byte[]> x5c = c.x5cRaw();
        if (!x5c.isEmpty()) {
            f.name("x5c").append('[');
            for (int i = 0; i < x5c.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append('"').append(Codec.b64std(x5c.get(i))).append('"');
            }
            sb.append(']');
        }
        if (c.id() != null) {
            if (idNesting >= MAX_ID_NESTING) {
                throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "iss.id nested too deep");
            }
            chain(f.name("id"), c.id(), true, null, idNesting + 1);
        }
        sb.append('}');
    }

    private static void sortedValue(StringBuilder sb, Object v, int depth) {
        if (depth > Json.MAX_NESTING) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "claim nested too deep");
        }
        if (v instanceof Map<?, ?> m) {
            TreeMap<String, Object> sorted = new TreeMap<>(LsvidPayload.KEY_ORDER);
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sorted.put(String.valueOf(e.getKey()), e.getValue());
            }
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                Json.writeString(sb, e.getKey());
                sb.append(':');
                sortedValue(sb, e.getValue(), depth + 1);
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sortedValue(sb, l.get(i), depth + 1);
            }
            sb.append(']');
        } else if (v instanceof BigDecimal) {
            // Go decodes a JSON number into float64 and writes it back in its own format; a
            // fraction or exponent cannot be reproduced byte for byte, so it is not canonical.
            throw new AssertionException(ErrorCode.MALFORMED, "non-integer number in a claim");
        } else if (v instanceof BigInteger i && i.abs().compareTo(MAX_EXACT_FLOAT) > 0) {
            // beyond 2^53 Go's float64 round trip changes the digits
            throw new AssertionException(ErrorCode.MALFORMED, "number in a claim out of the exact range");
        } else {
            Json.write(sb, v);
        }
    }

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    /** Writes {@code ,"name":} (without the comma for the first field) after an opening brace. */
    private static final class Fields {
        private final StringBuilder sb;
        private boolean first = true;

        Fields(StringBuilder sb) {
            this.sb = sb;
            sb.append('{');
        }

        StringBuilder name(String name) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append('"').append(name).append("\":");
            return sb;
        }
    }
}
