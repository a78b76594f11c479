package io.spiffeidt.core.decode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.core.lsvid.IdClaim;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidPayload;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.zkp.ZkProofCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decodes a document of a known mode into its layers for display, checking no signature, link or
 * time (that is the verifiers' work): DVID (docs/formats/dvid.md "Document"), ID-Mode
 * (docs/formats/id-mode.md "Wire format"), Anon-Mode (docs/formats/anon-mode.md "Wire format"),
 * LSVID (docs/formats/lsvid.md "Structure"). Nothing secret is returned: signatures are described by
 * algorithm and size, a DVID's proof by its round count.
 *
 * <p>Thread safety: stateless.
 */
public final class DocumentDecoder {

    /** The claims shown as fields of {@link DecodedLayer}, hence left out of its other claims. */
    private static final Set<String> NAMED_CLAIMS = Set.of("iss", "sub", "aud", "dpa", "dpr", "iat", "exp");

    private static final String ES256_DER = "ES256 (ECDSA P-256, DER)";

    private static final String SCHNORR = "Schnorr on edwards25519, concatenated";

    private DocumentDecoder() {}

    /**
     * Decodes {@code document} as {@code mode}.
     *
     * @param mode the document's format
     * @param document the encoded document (DVID: the compact JWS; ID-Mode, Anon-Mode: the dot
     *     token; LSVID: the base64url encoding)
     * @param limits the size and depth limits to apply before decoding
     * @return the decoded document, root layer first
     * @throws AssertionException {@link ErrorCode#LIMIT_EXCEEDED} over the limits, {@link
     *     ErrorCode#MALFORMED} when the text does not decode as {@code mode}, {@link
     *     ErrorCode#UNSUPPORTED} for a mode without a document ({@link Mode#hasDocument()})
     */
    public static DecodedDocument decode(Mode mode, String document, Limits limits) {
        return decode(mode, document, limits, false);
    }

    /**
     * Decodes {@code document} as {@code mode} as {@link #decode} does, but keeps a layer whose
     * payload is not base64url JSON ({@link DecodedLayer#payloadDecoded()} false, its claim fields
     * {@code null}) or whose signature is not base64url ({@link DecodedLayer#signatureBytes()} -1),
     * so that the other layers of a tampered document can still be shown (the inspector).
     *
     * @throws AssertionException {@link ErrorCode#LIMIT_EXCEEDED} over the limits, {@link
     *     ErrorCode#MALFORMED} when the document's layout (its segments, the LSVID encoding) is not
     *     that of {@code mode}
     */
    public static DecodedDocument decodeLeniently(Mode mode, String document, Limits limits) {
        return decode(mode, document, limits, true);
    }

    private static DecodedDocument decode(Mode mode, String document, Limits limits, boolean lenient) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(limits, "limits");
        if (document == null || document.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing document");
        }
        limits.checkEncodedSize(document.length());
        return switch (mode) {
            case DVID -> dvid(Mode.DVID, document, lenient);
            case TXN_TOKEN -> dvid(Mode.TXN_TOKEN, document, lenient);
            // the document a wimse subject keeps is its Txn-Token: the WIT and WPT are per call
            case WIMSE -> dvid(Mode.WIMSE, document, lenient);
            case ID_MODE -> nested(Mode.ID_MODE, document, limits, lenient);
            case ANON_MODE -> nested(Mode.ANON_MODE, document, limits, lenient);
            case LSVID -> lsvid(document, limits);
            case MTLS_ONLY, BEARER_FORWARD ->
                throw new AssertionException(ErrorCode.UNSUPPORTED, mode.pathSegment() + " has no document");
        };
    }

    /** A single compact JWS: a DVID, or a Txn-Token (its claims other than the common ones shown as they are). */
    private static DecodedDocument dvid(Mode mode, String token, boolean lenient) {
        CompactJws.Segments parts = CompactJws.split(token);
        Map<String, Object> header = object(parts.header(), 0, lenient);
        Map<String, Object> parsed = object(parts.payload(), 0, lenient);
        Map<String, Object> claims = parsed == null ? Map.of() : parsed;
        byte[] signature = bytes(parts.signature(), 0, lenient);
        Map<String, Object> other = others(claims);
        Object zkp = claims.get("zkp");
        int rounds = 0;
        if (zkp != null) {
            Map<String, Object> proof = new LinkedHashMap<>();
            if (zkp instanceof Map<?, ?> m && m.get("proof") instanceof String text) {
                try {
                    rounds = ZkProofCodec.parse(text).rounds();
                    proof.put("rounds", rounds);
                } catch (AssertionException e) {
                    proof.put("rounds", "unreadable (" + e.code() + ")");
                }
                proof.put("proofBytes", text.length());
            }
            // the OAuth token's header.payload travels in msg: shown by size only
            if (zkp instanceof Map<?, ?> m && m.get("msg") instanceof String msg) {
                proof.put("oauthMessageBytes", msg.length());
            }
            other.put("zkp", proof);
        }
        String alg = header != null && header.get("alg") instanceof String a ? a : "unknown";
        DecodedLayer layer = new DecodedLayer(
                0,
                "document",
                string(claims.get("iss")),
                string(claims.get("sub")),
                audience(claims.get("aud")),
                mode == Mode.TXN_TOKEN || mode == Mode.WIMSE ? userIssuer(claims) : string(claims.get("dpa")),
                // a Txn-Token's user is its sub (docs/formats/txn-token.md §1)
                string(claims.get(mode == Mode.TXN_TOKEN || mode == Mode.WIMSE ? "sub" : "dpr")),
                time(claims.get("iat")),
                time(claims.get("exp")),
                false,
                alg,
                size(signature),
                other,
                parsed != null);
        return new DecodedDocument(mode, token.length(), header, List.of(layer), zkp != null, rounds, false, null);
    }

    /** A Txn-Token's {@code tctx.dpa}, or {@code null}. */
    private static String userIssuer(Map<String, Object> claims) {
        return claims.get("tctx") instanceof Map<?, ?> tctx ? string(tctx.get("dpa")) : null;
    }

    /**
     * ID-Mode and Anon-Mode share the dot layout {@code P(L-1) . … . P(0) . S(0) . … . S(L-1)}:
     * layer {@code k} has its payload in segment {@code L-1-k} and its signature in {@code L+k}.
     */
    private static DecodedDocument nested(Mode mode, String token, Limits limits, boolean lenient) {
        String[] parts = token.split("\\.", -1);
        if (parts.length < 2 || parts.length % 2 != 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "an even number of at least two segments is expected");
        }
        int depth = parts.length / 2;
        limits.checkDepth(depth);
        boolean anon = mode == Mode.ANON_MODE;
        List<DecodedLayer> layers = new ArrayList<>(depth);
        boolean hopsAnonymous = true;
        for (int k = 0; k < depth; k++) {
            Map<String, Object> parsed = object(parts[depth - 1 - k], k, lenient);
            Map<String, Object> claims = parsed == null ? Map.of() : parsed;
            byte[] signature = bytes(parts[depth + k], k, lenient);
            // Anon-Mode: every issuer is a key; only an iid (original-compatible) names a workload
            boolean anonymous = anon && !claims.containsKey("iid");
            if (k > 0) {
                hopsAnonymous &= anonymous;
            }
            String algorithm =
                    anon ? SCHNORR + (k == depth - 1 ? " (R‖s; s is the next hop's key)" : " (R only)") : ES256_DER;
            layers.add(new DecodedLayer(
                    k,
                    k == 0 ? "root" : "hop",
                    string(claims.get("iss")),
                    string(claims.get("sub")),
                    audience(claims.get("aud")),
                    string(claims.get("dpa")),
                    string(claims.get("dpr")),
                    time(claims.get("iat")),
                    time(claims.get("exp")),
                    anonymous,
                    algorithm,
                    size(signature),
                    others(claims),
                    parsed != null));
        }
        return new DecodedDocument(mode, token.length(), Map.of(), layers, false, 0, anon && hopsAnonymous, null);
    }

    private static DecodedDocument lsvid(String encoded, Limits limits) {
        // the LSVID encoding is one JSON document: it decodes whole or not at all
        Lsvid lsvid = LsvidCodec.decode(encoded, limits);
        List<LsvidToken> outermostFirst = new ArrayList<>();
        for (LsvidToken t = lsvid.token(); t != null; t = t.nested()) {
            outermostFirst.add(t);
        }
        Collections.reverse(outermostFirst);
        List<DecodedLayer> layers = new ArrayList<>(outermostFirst.size());
        for (int k = 0; k < outermostFirst.size(); k++) {
            LsvidToken t = outermostFirst.get(k);
            LsvidPayload p = t.payload();
            Map<String, Object> other = new LinkedHashMap<>();
            other.put("ver", p.ver());
            if (p.iss() != null && p.iss().pk() != null) {
                other.put("issuerKeyBytes", p.iss().pk().length);
            }
            if (p.sub() != null && p.sub().pk() != null) {
                other.put("subjectKeyBytes", p.sub().pk().length);
            }
            if (p.sub() != null && !p.sub().x5c().isEmpty()) {
                other.put("subjectCertificates", p.sub().x5c().size());
            }
            if (!p.data().isEmpty()) {
                other.put("data", p.data());
            }
            if (p.iss() != null && p.iss().id() != null) {
                other.put(
                        "issuerBaseToken",
                        "base token of " + p.iss().id().payload().sub().cn());
            }
            layers.add(new DecodedLayer(
                    k,
                    t.isBase() ? "base" : "extension",
                    cn(p.iss()),
                    cn(p.sub()),
                    cn(p.aud()),
                    empty(p.dpa()),
                    empty(p.dpr()),
                    p.iat() == 0 ? null : Instant.ofEpochSecond(p.iat()),
                    p.exp() == 0 ? null : Instant.ofEpochSecond(p.exp()),
                    false,
                    p.alg() == null ? "unknown" : p.alg() + " (ECDSA P-256)",
                    t.signature() == null ? 0 : t.signature().length,
                    other,
                    true));
        }
        DecodedLayer bundle = null;
        if (lsvid.bundle() != null) {
            LsvidPayload b = lsvid.bundle().payload();
            bundle = new DecodedLayer(
                    0,
                    "bundle",
                    cn(b.iss()),
                    cn(b.sub()),
                    null,
                    null,
                    null,
                    null,
                    null,
                    false,
                    b.alg() == null ? "unknown" : b.alg() + " (ECDSA P-256)",
                    lsvid.bundle().signature() == null ? 0 : lsvid.bundle().signature().length,
                    Map.of(),
                    true);
        }
        return new DecodedDocument(Mode.LSVID, encoded.length(), Map.of(), layers, false, 0, false, bundle);
    }

    /** The segment's JSON object; null (lenient) or MALFORMED when it is none. */
    private static Map<String, Object> object(String segment, int layer, boolean lenient) {
        byte[] bytes = bytes(segment, layer, lenient);
        try {
            if (bytes == null) {
                return null;
            }
            return Json.parseObject(Codec.utf8(bytes));
        } catch (AssertionException e) {
            if (lenient) {
                return null;
            }
            throw new AssertionException(ErrorCode.MALFORMED, layer, "payload is not one JSON object");
        }
    }

    /** The segment's bytes; null (lenient) or MALFORMED when it is not base64url. */
    private static byte[] bytes(String segment, int layer, boolean lenient) {
        try {
            return Codec.fromB64url(segment);
        } catch (AssertionException e) {
            if (lenient) {
                return null;
            }
            throw new AssertionException(ErrorCode.MALFORMED, layer, "segment is not base64url");
        }
    }

    private static int size(byte[] signature) {
        return signature == null ? -1 : signature.length;
    }

    private static Map<String, Object> others(Map<String, Object> claims) {
        Map<String, Object> out = new LinkedHashMap<>();
        claims.forEach((k, v) -> {
            if (!NAMED_CLAIMS.contains(k)) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static String audience(Object aud) {
        if (aud instanceof List<?> list) {
            List<String> names = new ArrayList<>();
            for (Object o : list) {
                names.add(String.valueOf(o));
            }
            return String.join(", ", names);
        }
        return string(aud);
    }

    private static String string(Object value) {
        return value == null ? null : empty(value.toString());
    }

    private static String cn(IdClaim claim) {
        return claim == null ? null : empty(claim.cn());
    }

    private static String empty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static Instant time(Object value) {
        if (value instanceof Number n) {
            return Instant.ofEpochSecond(n.longValue());
        }
        return null;
    }
}
