package io.spiffeidt.inspect;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Detects a document's format from what the user gave (a token, an encoded or decoded LSVID, a
 * presentation JSON with ID-Mode artifacts, a proof JSON); {@link Display} decodes it for display.
 */
final class Detector {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Sizes of Anon-Mode signature segments in base64url characters: {@code R} and {@code R‖s}. */
    private static final int ANON_INNER_CHARS = 43;

    private static final int ANON_FINAL_CHARS = 86;

    private Detector() {}

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

    // ---- helpers ----

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
