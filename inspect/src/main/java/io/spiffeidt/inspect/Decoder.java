package io.spiffeidt.inspect;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.lsvid.IdClaim;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidCodec;
import io.spiffeidt.core.lsvid.LsvidPayload;
import io.spiffeidt.core.lsvid.LsvidToken;
import io.spiffeidt.core.zkp.ZkProof;
import io.spiffeidt.core.zkp.ZkProofCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Detects a document's format and decodes it for display, without verifying anything. Decoding is
 * lenient where verification is strict: a tampered layer is shown as undecodable, the others still
 * appear. Signatures are shown by algorithm and size only (an Anon-Mode token's last {@code s} is the
 * next hop's signing key).
 */
final class Decoder {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Sizes of Anon-Mode signature segments in base64url characters: {@code R} and {@code R‖s}. */
    private static final int ANON_INNER_CHARS = 43;

    private static final int ANON_FINAL_CHARS = 86;

    private Decoder() {}

    /**
     * A detected document.
     *
     * @param format its format
     * @param text what the core verifier takes (the token, the encoded LSVID, the proof JSON)
     * @param artifacts ID-Mode artifacts carried beside the token in a presentation JSON, or {@code null}
     */
    record Document(Format format, String text, String artifacts) {}

    /** Detects the format of {@code raw} (or takes {@code forced}). */
    static Document detect(String raw, Format forced) {
        String t = raw.strip();
        if (t.isEmpty()) {
            throw new UsageException("empty input");
        }
        if (t.startsWith("{")) {
            return detectJson(t, forced);
        }
        if (forced != null) {
            return new Document(forced, t, null);
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean ok = (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == '=';
            if (!ok) {
                throw new UsageException("cannot detect the format: the input is neither a token nor JSON");
            }
        }
        if (t.indexOf('.') >= 0) {
            String[] parts = t.split("\\.", -1);
            if (parts.length == 3 && jwsHeader(parts[0])) {
                return new Document(Format.DVID, t, null);
            }
            if (parts.length % 2 == 0) {
                return new Document(nestedFormat(parts), t, null);
            }
            throw new UsageException("cannot detect the format: " + parts.length + " segments, not a known layout");
        }
        String decoded = utf8(b64url(t));
        if (decoded != null && decoded.startsWith("{\"token\":")) {
            return new Document(Format.LSVID, t, null);
        }
        throw new UsageException("cannot detect the format of the input");
    }

    private static Document detectJson(String t, Format forced) {
        JsonNode node;
        try {
            node = JSON.readTree(t);
        } catch (JacksonException e) {
            throw new UsageException("cannot detect the format: the input starts like JSON but does not parse");
        }
        if (node == null || !node.isObject()) {
            throw new UsageException("cannot detect the format: JSON that is not an object");
        }
        JsonNode token = node.get("token");
        if ((forced == null || forced == Format.ZKP) && node.has("proofp")) {
            return new Document(Format.ZKP, t, null);
        }
        if ((forced == null || forced == Format.ID_MODE) && token != null && token.isString()) {
            JsonNode artifacts = node.get("artifacts");
            String a = artifacts == null || artifacts.isNull()
                    ? null
                    : artifacts.isString() ? artifacts.asString() : artifacts.toString();
            return new Document(Format.ID_MODE, token.asString(), a);
        }
        if ((forced == null || forced == Format.LSVID) && token != null && token.isObject()) {
            // a decoded LSVID: the verifier takes the encoded form of these exact bytes
            return new Document(
                    Format.LSVID,
                    Base64.getUrlEncoder().withoutPadding().encodeToString(t.getBytes(StandardCharsets.UTF_8)),
                    null);
        }
        throw new UsageException("cannot detect the format of this JSON input");
    }

    private static boolean jwsHeader(String segment) {
        Map<String, Object> header = jsonObject(segment);
        return header != null && header.get("alg") instanceof String;
    }

    /** ID-Mode issuers are SPIFFE IDs, Anon-Mode issuers are keys; else the signature sizes decide. */
    private static Format nestedFormat(String[] parts) {
        int depth = parts.length / 2;
        for (int p = 0; p < depth; p++) {
            Map<String, Object> claims = jsonObject(parts[p]);
            if (claims != null && claims.get("iss") instanceof String iss) {
                return iss.startsWith("spiffe://") ? Format.ID_MODE : Format.ANON_MODE;
            }
        }
        boolean anon = parts[parts.length - 1].length() == ANON_FINAL_CHARS;
        for (int i = depth; anon && i < parts.length - 1; i++) {
            anon = parts[i].length() == ANON_INNER_CHARS;
        }
        return anon ? Format.ANON_MODE : Format.ID_MODE;
    }

    /** Decodes {@code doc} into a report (no verification). */
    static Report decode(Document doc) {
        Report r = new Report();
        r.document.put("format", doc.format().id());
        r.document.put("formatName", doc.format().title());
        r.document.put("encodedBytes", doc.text().getBytes(StandardCharsets.UTF_8).length);
        switch (doc.format()) {
            case DVID -> dvid(doc.text(), r);
            case ID_MODE -> nested(doc, r, false);
            case ANON_MODE -> nested(doc, r, true);
            case LSVID -> lsvid(doc.text(), r);
            case ZKP -> zkp(doc.text(), r);
        }
        return r;
    }

    // ---- DVID ----

    private static void dvid(String token, Report r) {
        String[] parts = token.split("\\.", -1);
        r.document.put("depth", 1);
        if (parts.length != 3) {
            r.document.put("decodeError", "not a compact JWS of three segments");
            return;
        }
        Map<String, Object> header = jsonObject(parts[0]);
        Map<String, Object> claims = jsonObject(parts[1]);
        byte[] sig = b64url(parts[2]);
        r.details.put("header", header == null ? "undecodable" : header);
        Map<String, Object> layer = new LinkedHashMap<>();
        layer.put("title", "DVID claims");
        layer.put("layer", 0);
        if (claims == null) {
            layer.put("payload", "undecodable (not base64url JSON)");
        } else {
            Map<String, Object> shown = new LinkedHashMap<>(claims);
            Object zkp = shown.get("zkp");
            if (zkp != null) {
                shown.put("zkp", proofSummary(zkp));
            }
            layer.put("issuer", claims.get("iss"));
            layer.put("subject", claims.get("sub"));
            layer.put("audience", claims.get("aud"));
            layer.put("dpa", claims.get("dpa"));
            layer.put("dpr", claims.get("dpr"));
            layer.put("iat", time(claims.get("iat")));
            layer.put("exp", time(claims.get("exp")));
            layer.put("jti", claims.get("jti"));
            layer.put("proofAttached", zkp != null);
            r.details.put("claims", timesShown(shown));
        }
        layer.put("signatureAlgorithm", header == null ? null : header.get("alg"));
        layer.put("signatureBytes", sig == null ? "undecodable" : sig.length);
        r.layers.add(layer);
    }

    private static Object proofSummary(Object zkp) {
        if (!(zkp instanceof Map<?, ?> m)) {
            return "not an object";
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (m.get("msg") instanceof String msg) {
            out.put("msgChars", msg.length());
        }
        if (m.get("proof") instanceof String proof) {
            out.put("proofChars", proof.length());
            try {
                out.put("proofRounds", ZkProofCodec.parse(proof).rounds());
            } catch (AssertionException e) {
                out.put("proofRounds", "unreadable (" + e.code() + ")");
            }
        }
        return out;
    }

    // ---- ID-Mode and Anon-Mode ----

    private static void nested(Document doc, Report r, boolean anon) {
        String[] parts = doc.text().split("\\.", -1);
        if (parts.length % 2 != 0 || parts.length < 2) {
            r.document.put("decodeError", parts.length + " segments, not an even count of at least 2");
            return;
        }
        int depth = parts.length / 2;
        r.document.put("depth", depth);
        List<String> leaves = null;
        if (!anon && doc.artifacts() != null) {
            r.document.put("artifactsBytes", doc.artifacts().getBytes(StandardCharsets.UTF_8).length);
            leaves = artifactLeaves(doc.artifacts(), r);
        }
        for (int i = depth - 1; i >= 0; i--) {
            String payload = parts[depth - 1 - i];
            String signature = parts[depth + i];
            Map<String, Object> layer = new LinkedHashMap<>();
            String role = i == depth - 1 ? (depth == 1 ? "root, outermost" : "outermost") : i == 0 ? "root" : "hop";
            layer.put("title", "layer " + i + " (" + role + ")");
            layer.put("layer", i);
            layer.put("role", role);
            Map<String, Object> claims = jsonObject(payload);
            if (claims == null) {
                layer.put("payload", "undecodable (not base64url JSON)");
            } else {
                layer.put("issuer", claims.get("iss"));
                layer.put("audience", claims.get("aud"));
                layer.put("dpa", claims.get("dpa"));
                layer.put("dpr", claims.get("dpr"));
                layer.put("iat", time(claims.get("iat")));
                layer.put("exp", time(claims.get("exp")));
                if (anon) {
                    layer.put("iid", claims.get("iid"));
                    layer.put("anonymous", i == 0 || !claims.containsKey("iid"));
                }
                Map<String, Object> other = new LinkedHashMap<>(claims);
                for (String known : List.of("iss", "aud", "dpa", "dpr", "iat", "exp", "iid")) {
                    other.remove(known);
                }
                if (!other.isEmpty()) {
                    layer.put("otherClaims", other);
                }
            }
            layer.put("payloadBytes", payload.length());
            byte[] sig = b64url(signature);
            if (anon) {
                layer.put("signatureAlgorithm", "Schnorr on edwards25519 (SchoCo, concatenated)");
                layer.put(
                        "signature",
                        i == depth - 1
                                ? "R||s (s withheld: it is the next hop's signing key)"
                                : "R only (the inner s is never sent)");
            } else {
                layer.put("signatureAlgorithm", "ES256 (ECDSA P-256, ASN.1 DER)");
            }
            layer.put("signatureBytes", sig == null ? "undecodable" : sig.length);
            if (leaves != null) {
                layer.put("certificate", i < leaves.size() ? leaves.get(i) : "missing");
            }
            r.layers.add(layer);
        }
        if (anon) {
            boolean allAnonymous = r.layers.stream().allMatch(l -> !Boolean.FALSE.equals(l.get("anonymous")));
            r.details.put("hopsAnonymous", allAnonymous);
        }
    }

    /** Per layer, the leaf's SPIFFE ID and validity end (never the certificate itself). */
    private static List<String> artifactLeaves(String text, Report r) {
        IdModeArtifacts artifacts;
        try {
            artifacts = IdModeArtifacts.parse(text, Limits.defaults());
        } catch (AssertionException e) {
            r.details.put("artifacts", "unreadable (" + e.code() + ")");
            return null;
        }
        r.details.put("artifactChains", artifacts.size());
        List<String> out = new ArrayList<>();
        for (List<X509Certificate> chain : artifacts.chains()) {
            X509Certificate leaf = chain.get(0);
            List<String> ids = KeyMaterial.spiffeIds(leaf);
            out.add((ids.isEmpty() ? "leaf without SPIFFE ID" : String.join(",", ids)) + ", chain of " + chain.size()
                    + ", valid until " + leaf.getNotAfter().toInstant());
        }
        return out;
    }

    // ---- LSVID ----

    private static void lsvid(String encoded, Report r) {
        Lsvid doc;
        try {
            doc = LsvidCodec.decode(encoded);
        } catch (AssertionException e) {
            r.document.put("decodeError", e.getMessage());
            return;
        }
        r.document.put("depth", doc.depth());
        int depth = doc.depth();
        int k = depth - 1;
        for (LsvidToken t = doc.token(); t != null; t = t.nested(), k--) {
            LsvidPayload p = t.payload();
            Map<String, Object> layer = new LinkedHashMap<>();
            String role = t.isBase() ? "base" : "extension";
            layer.put("title", "token " + k + " (" + (k == depth - 1 && depth > 1 ? "outermost " : "") + role + ")");
            layer.put("layer", k);
            layer.put("role", role);
            layer.put("version", p.ver());
            layer.put("issuer", cn(p.iss()));
            if (p.iss() != null && p.iss().pk() != null) {
                layer.put("issuerKeyBytes", p.iss().pk().length);
            }
            if (p.iss() != null && p.iss().id() != null) {
                LsvidPayload idp = p.iss().id().payload();
                layer.put("issuerId", "base token of " + cn(idp.sub()));
            }
            layer.put("subject", cn(p.sub()));
            if (p.sub() != null && p.sub().pk() != null) {
                layer.put("subjectKeyBytes", p.sub().pk().length);
            }
            if (p.sub() != null && !p.sub().x5c().isEmpty()) {
                layer.put("subjectCertificates", p.sub().x5c().size());
            }
            layer.put("audience", cn(p.aud()));
            layer.put("dpa", empty(p.dpa()));
            layer.put("dpr", empty(p.dpr()));
            layer.put("iat", p.iat() == 0 ? null : time(p.iat()));
            layer.put("exp", p.exp() == 0 ? null : time(p.exp()));
            layer.put("signatureAlgorithm", p.alg());
            layer.put("signatureBytes", t.signature() == null ? 0 : t.signature().length);
            r.layers.add(layer);
        }
        if (doc.bundle() != null) {
            LsvidPayload b = doc.bundle().payload();
            Map<String, Object> bundle = new LinkedHashMap<>();
            bundle.put("issuer", cn(b.iss()));
            bundle.put("subject", cn(b.sub()));
            bundle.put("signatureBytes", doc.bundle().signature().length);
            r.details.put("bundle", bundle);
        } else {
            r.details.put("bundle", "none");
        }
    }

    private static String cn(IdClaim claim) {
        return claim == null ? null : empty(claim.cn());
    }

    private static String empty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    // ---- ZKP ----

    private static void zkp(String json, Report r) {
        ZkProof proof;
        try {
            proof = ZkProofCodec.parse(json);
        } catch (AssertionException e) {
            r.document.put("decodeError", e.getMessage());
            return;
        }
        r.document.put("depth", 1);
        Map<String, Object> layer = new LinkedHashMap<>();
        layer.put("title", "proof");
        layer.put("layer", 0);
        layer.put("rounds", proof.rounds());
        int bits = 0;
        for (BigInteger v : proof.p()) {
            bits = Math.max(bits, v.bitLength());
        }
        for (BigInteger v : proof.c()) {
            bits = Math.max(bits, v.bitLength());
        }
        layer.put("largestValueBits", bits);
        layer.put("signatureAlgorithm", "RS256 (proves knowledge of the IdP signature)");
        r.layers.add(layer);
    }

    // ---- helpers ----

    /** Claims with NumericDate members shown as times too. */
    private static Map<String, Object> timesShown(Map<String, Object> claims) {
        Map<String, Object> out = new LinkedHashMap<>(claims);
        for (String k : List.of("iat", "exp", "nbf", "aat")) {
            if (out.get(k) instanceof Number) {
                out.put(k, time(out.get(k)));
            }
        }
        return out;
    }

    /** A NumericDate claim as an {@link Instant}; anything else as it is. */
    static Object time(Object value) {
        if (value instanceof Number n) {
            try {
                return Instant.ofEpochSecond(n.longValue());
            } catch (RuntimeException e) {
                return value;
            }
        }
        return value;
    }

    static byte[] b64url(String s) {
        try {
            return Base64.getUrlDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String utf8(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> jsonObject(String segment) {
        String text = utf8(b64url(segment));
        if (text == null) {
            return null;
        }
        try {
            Object v = JSON.readValue(text, Object.class);
            return v instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
        } catch (JacksonException e) {
            return null;
        }
    }
}
