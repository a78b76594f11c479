package io.spiffeidt.inspect;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.decode.DecodedDocument;
import io.spiffeidt.core.decode.DecodedLayer;
import io.spiffeidt.core.decode.DocumentDecoder;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.zkp.ZkProof;
import io.spiffeidt.core.zkp.ZkProofCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a detected document into the inspector's report, without verifying anything: the layers come
 * from assertion-core's {@link DocumentDecoder} (leniently: a tampered layer is shown as undecodable,
 * the others still appear); this class only lays them out, outermost first, and adds what only the
 * inspector shows (segment sizes, ID-Mode artifacts, a proof's rounds). Signatures are shown by
 * algorithm and size only (an Anon-Mode token's last {@code s} is the next hop's signing key).
 */
final class Display {

    private static final Limits LIMITS = Limits.defaults();

    private static final String UNDECODABLE_PAYLOAD = "undecodable (not base64url JSON)";

    private Display() {}

    /** Decodes {@code doc} into a report (no verification). */
    static Report decode(Detector.Document doc) {
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
        r.document.put("depth", 1);
        DecodedDocument decoded;
        try {
            decoded = DocumentDecoder.decodeLeniently(Mode.DVID, token, LIMITS);
        } catch (AssertionException e) {
            r.document.put(
                    "decodeError",
                    e.code() == ErrorCode.MALFORMED ? "not a compact JWS of three segments" : e.getMessage());
            return;
        }
        DecodedLayer claims = decoded.layers().get(0);
        r.details.put("header", decoded.header().isEmpty() ? "undecodable" : decoded.header());
        Map<String, Object> layer = new LinkedHashMap<>();
        layer.put("title", "DVID claims");
        layer.put("layer", 0);
        if (!claims.payloadDecoded()) {
            layer.put("payload", UNDECODABLE_PAYLOAD);
        } else {
            layer.put("issuer", claims.issuer());
            layer.put("subject", claims.subject());
            layer.put("audience", claims.audience());
            layer.put("dpa", claims.dpa());
            layer.put("dpr", claims.dpr());
            layer.put("iat", claims.issuedAt());
            layer.put("exp", claims.expiresAt());
            layer.put("jti", claims.otherClaims().get("jti"));
            layer.put("proofAttached", decoded.proofAttached());
            r.details.put("claims", allClaims(claims));
        }
        layer.put("signatureAlgorithm", decoded.header().get("alg"));
        layer.put("signatureBytes", signatureBytes(claims));
        r.layers.add(layer);
    }

    /**
     * Every claim of a DVID, in key order (the order the originals write), NumericDates as times and
     * the proof by its sizes and rounds only.
     */
    private static Map<String, Object> allClaims(DecodedLayer layer) {
        Map<String, Object> all = new TreeMap<>();
        putIfPresent(all, "iss", layer.issuer());
        putIfPresent(all, "sub", layer.subject());
        putIfPresent(all, "aud", layer.audience());
        putIfPresent(all, "dpa", layer.dpa());
        putIfPresent(all, "dpr", layer.dpr());
        putIfPresent(all, "iat", layer.issuedAt());
        putIfPresent(all, "exp", layer.expiresAt());
        layer.otherClaims()
                .forEach((k, v) -> all.put(
                        k,
                        switch (k) {
                            case "nbf", "aat" -> v instanceof Number n ? Instant.ofEpochSecond(n.longValue()) : v;
                            case "zkp" -> proofSummary(v);
                            default -> v;
                        }));
        return all;
    }

    /** DocumentDecoder's proof summary under the inspector's names. */
    private static Object proofSummary(Object summary) {
        if (!(summary instanceof Map<?, ?> m)) {
            return "not an object";
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (m.containsKey("oauthMessageBytes")) {
            out.put("msgChars", m.get("oauthMessageBytes"));
        }
        if (m.containsKey("proofBytes")) {
            out.put("proofChars", m.get("proofBytes"));
            out.put("proofRounds", m.get("rounds"));
        }
        return out;
    }

    // ---- ID-Mode and Anon-Mode ----

    private static void nested(Detector.Document doc, Report r, boolean anon) {
        String[] parts = doc.text().split("\\.", -1);
        DecodedDocument decoded;
        try {
            decoded = DocumentDecoder.decodeLeniently(anon ? Mode.ANON_MODE : Mode.ID_MODE, doc.text(), LIMITS);
        } catch (AssertionException e) {
            r.document.put(
                    "decodeError",
                    e.code() == ErrorCode.MALFORMED
                            ? parts.length + " segments, not an even count of at least 2"
                            : e.getMessage());
            return;
        }
        int depth = decoded.depth();
        r.document.put("depth", depth);
        List<String> leaves = null;
        if (!anon && doc.artifacts() != null) {
            r.document.put("artifactsBytes", doc.artifacts().getBytes(StandardCharsets.UTF_8).length);
            leaves = artifactLeaves(doc.artifacts(), r);
        }
        for (int i = depth - 1; i >= 0; i--) {
            DecodedLayer decodedLayer = decoded.layers().get(i);
            Map<String, Object> layer = new LinkedHashMap<>();
            String role = i == depth - 1 ? (depth == 1 ? "root, outermost" : "outermost") : i == 0 ? "root" : "hop";
            layer.put("title", "layer " + i + " (" + role + ")");
            layer.put("layer", i);
            layer.put("role", role);
            if (!decodedLayer.payloadDecoded()) {
                layer.put("payload", UNDECODABLE_PAYLOAD);
            } else {
                layer.put("issuer", decodedLayer.issuer());
                layer.put("audience", decodedLayer.audience());
                layer.put("dpa", decodedLayer.dpa());
                layer.put("dpr", decodedLayer.dpr());
                layer.put("iat", decodedLayer.issuedAt());
                layer.put("exp", decodedLayer.expiresAt());
                Map<String, Object> other = new LinkedHashMap<>();
                if (decodedLayer.subject() != null) {
                    other.put("sub", decodedLayer.subject());
                }
                other.putAll(decodedLayer.otherClaims());
                if (anon) {
                    layer.put("iid", other.get("iid"));
                    // the root names the asserting workload by introspection, never by a claim
                    layer.put("anonymous", i == 0 || decodedLayer.anonymous());
                }
                other.remove("iid");
                if (!other.isEmpty()) {
                    layer.put("otherClaims", other);
                }
            }
            layer.put("payloadBytes", parts[depth - 1 - i].length());
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
            layer.put("signatureBytes", signatureBytes(decodedLayer));
            if (leaves != null) {
                layer.put("certificate", i < leaves.size() ? leaves.get(i) : "missing");
            }
            r.layers.add(layer);
        }
        if (anon) {
            r.details.put("hopsAnonymous", decoded.hopsAnonymous());
        }
    }

    /** Per layer, the leaf's SPIFFE ID and validity end (never the certificate itself). */
    private static List<String> artifactLeaves(String text, Report r) {
        IdModeArtifacts artifacts;
        try {
            artifacts = IdModeArtifacts.parse(text, LIMITS);
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
        DecodedDocument decoded;
        try {
            decoded = DocumentDecoder.decodeLeniently(Mode.LSVID, encoded, LIMITS);
        } catch (AssertionException e) {
            r.document.put("decodeError", e.getMessage());
            return;
        }
        int depth = decoded.depth();
        r.document.put("depth", depth);
        for (int k = depth - 1; k >= 0; k--) {
            DecodedLayer token = decoded.layers().get(k);
            Map<String, Object> facts = token.otherClaims();
            Map<String, Object> layer = new LinkedHashMap<>();
            String role = token.role();
            layer.put("title", "token " + k + " (" + (k == depth - 1 && depth > 1 ? "outermost " : "") + role + ")");
            layer.put("layer", k);
            layer.put("role", role);
            layer.put("version", facts.get("ver"));
            layer.put("issuer", token.issuer());
            putIfPresent(layer, "issuerKeyBytes", facts.get("issuerKeyBytes"));
            putIfPresent(layer, "issuerId", facts.get("issuerBaseToken"));
            layer.put("subject", token.subject());
            putIfPresent(layer, "subjectKeyBytes", facts.get("subjectKeyBytes"));
            putIfPresent(layer, "subjectCertificates", facts.get("subjectCertificates"));
            layer.put("audience", token.audience());
            layer.put("dpa", token.dpa());
            layer.put("dpr", token.dpr());
            layer.put("iat", token.issuedAt());
            layer.put("exp", token.expiresAt());
            layer.put("signatureAlgorithm", token.signatureAlgorithm());
            layer.put("signatureBytes", token.signatureBytes());
            r.layers.add(layer);
        }
        if (decoded.bundle() != null) {
            Map<String, Object> bundle = new LinkedHashMap<>();
            bundle.put("issuer", decoded.bundle().issuer());
            bundle.put("subject", decoded.bundle().subject());
            bundle.put("signatureBytes", decoded.bundle().signatureBytes());
            r.details.put("bundle", bundle);
        } else {
            r.details.put("bundle", "none");
        }
    }

    // ---- ZKP (not a document: DocumentDecoder does not take it) ----

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

    private static Object signatureBytes(DecodedLayer layer) {
        return layer.signatureBytes() < 0 ? "undecodable" : layer.signatureBytes();
    }

    private static void putIfPresent(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }
}
