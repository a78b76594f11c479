package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.X509Svids;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The identity artifacts that travel beside an ID-Mode token (docs/formats/id-mode.md "Identity
 * artifacts"): one X.509-SVID certificate chain per layer, root first; each chain leaf first,
 * then intermediates (never the trust anchor).
 *
 * <p><b>JSON form</b> (what we send, {@link #toJson()}): an array with one entry per layer, root
 * first; each entry an array of std-base64 (RFC 4648 §4, padded) DER certificates, leaf first.
 * Compact, no whitespace:
 *
 * <pre>[["MIIB...leaf of layer 0...","MIIB...intermediate..."],["MIIB...leaf of layer 1..."]]</pre>
 *
 * <p><b>PEM form</b> (accepted for compatibility, {@link #parsePem}): one string of
 * concatenated PEM {@code CERTIFICATE} blocks, one leaf per layer, root first, as the original
 * {@code IDArtifacts} (blocks may or may not be separated by whitespace).
 *
 * <p>Each certificate is parsed exactly once, when the artifacts are built; the verifier reuses
 * the parsed objects. Limits: the text size and the number of layers follow {@link Limits};
 * a chain holds at most {@link #MAX_CHAIN_LENGTH} certificates.
 *
 * <p>Thread safety: immutable.
 */
public final class IdModeArtifacts {

    /** The most certificates one layer's chain may hold (leaf plus intermediates). */
    public static final int MAX_CHAIN_LENGTH = 8;

    private static final String PEM_BEGIN = "-----BEGIN CERTIFICATE-----";
    private static final String PEM_END = "-----END CERTIFICATE-----";

    private final List<List<X509Certificate>> chains;
    private final List<List<String>> base64;

    private IdModeArtifacts(List<List<X509Certificate>> chains, List<List<String>> base64) {
        this.chains = chains;
        this.base64 = base64;
    }

    /**
     * Artifacts from certificate chains, root layer first, each leaf first.
     *
     * @throws IllegalArgumentException for an empty list, an empty or over-long chain
     */
    public static IdModeArtifacts of(List<? extends List<X509Certificate>> chains) {
        Objects.requireNonNull(chains, "chains");
        if (chains.isEmpty()) {
            throw new IllegalArgumentException("artifacts need at least one chain");
        }
        List<List<X509Certificate>> c = new ArrayList<>(chains.size());
        List<List<String>> b = new ArrayList<>(chains.size());
        for (List<X509Certificate> chain : chains) {
            checkChain(chain);
            c.add(List.copyOf(chain));
            b.add(encode(chain));
        }
        return new IdModeArtifacts(List.copyOf(c), List.copyOf(b));
    }

    /**
     * Parses either accepted form: the JSON form when the text starts with {@code [} (after
     * whitespace), the PEM form otherwise.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static IdModeArtifacts parse(String text, Limits limits) {
        if (text == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        limits.checkEncodedSize(text.length());
        return text.stripLeading().startsWith("[") ? parseJson(text, limits) : parsePem(text, limits);
    }

    /**
     * Parses the JSON form (see the class comment).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static IdModeArtifacts parseJson(String json, Limits limits) {
        if (json == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        limits.checkEncodedSize(json.length());
        return fromJsonValue(IdModeJson.parse(json, -1), limits);
    }

    /**
     * Artifacts from an already-parsed JSON value of the JSON form: a list of lists of std-base64
     * strings. Useful where a request body has been parsed by another JSON reader.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static IdModeArtifacts fromJsonValue(Object value, Limits limits) {
        if (!(value instanceof List<?> layers)) {
            throw new AssertionException(ErrorCode.MALFORMED, "artifacts are not a JSON array");
        }
        List<List<String>> b64 = new ArrayList<>(layers.size());
        for (Object layer : layers) {
            if (!(layer instanceof List<?> chain)) {
                throw new AssertionException(ErrorCode.MALFORMED, "artifact entry is not an array");
            }
            List<String> certs = new ArrayList<>(chain.size());
            for (Object cert : chain) {
                if (!(cert instanceof String s)) {
                    throw new AssertionException(ErrorCode.MALFORMED, "certificate is not a string");
                }
                certs.add(s);
            }
            b64.add(certs);
        }
        return fromBase64(b64, limits);
    }

    /**
     * Artifacts from std-base64 DER strings, root layer first, each chain leaf first.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static IdModeArtifacts fromBase64(List<? extends List<String>> layers, Limits limits) {
        Objects.requireNonNull(limits, "limits");
        if (layers == null || layers.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "no artifacts");
        }
        limits.checkDepth(layers.size());
        List<List<X509Certificate>> c = new ArrayList<>(layers.size());
        List<List<String>> b = new ArrayList<>(layers.size());
        for (int k = 0; k < layers.size(); k++) {
            List<String> strings = layers.get(k);
            if (strings == null || strings.isEmpty()) {
                throw new AssertionException(ErrorCode.MALFORMED, k, "empty certificate chain");
            }
            if (strings.size() > MAX_CHAIN_LENGTH) {
                throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, k, "certificate chain too long");
            }
            List<X509Certificate> chain = new ArrayList<>(strings.size());
            for (String s : strings) {
                byte[] der;
                try {
                    der = Codec.fromB64std(s);
                } catch (AssertionException e) {
                    throw new AssertionException(ErrorCode.MALFORMED, k, "certificate is not std base64");
                }
                chain.add(single(der, k));
            }
            c.add(List.copyOf(chain));
            b.add(List.copyOf(strings));
        }
        return new IdModeArtifacts(List.copyOf(c), List.copyOf(b));
    }

    /**
     * Parses the original PEM form: concatenated {@code CERTIFICATE} blocks, one leaf per layer,
     * root first. Whitespace between blocks and line breaks inside them are allowed; anything
     * else (other block types, headers, trailing text) is not.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} or {@link ErrorCode#LIMIT_EXCEEDED}
     */
    public static IdModeArtifacts parsePem(String pem, Limits limits) {
        if (pem == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing artifacts");
        }
        limits.checkEncodedSize(pem.length());
        List<List<String>> layers = new ArrayList<>();
        int pos = skipWhitespace(pem, 0);
        while (pos < pem.length()) {
            if (!pem.startsWith(PEM_BEGIN, pos)) {
                throw new AssertionException(ErrorCode.MALFORMED, "artifacts are neither JSON nor PEM certificates");
            }
            int bodyStart = pos + PEM_BEGIN.length();
            int end = pem.indexOf(PEM_END, bodyStart);
            if (end < 0) {
                throw new AssertionException(ErrorCode.MALFORMED, "unterminated PEM certificate");
            }
            StringBuilder body = new StringBuilder(end - bodyStart);
            for (int i = bodyStart; i < end; i++) {
                char ch = pem.charAt(i);
                if (!isWhitespace(ch)) {
                    body.append(ch);
                }
            }
            layers.add(List.of(body.toString()));
            limits.checkDepth(layers.size());
            pos = skipWhitespace(pem, end + PEM_END.length());
        }
        return fromBase64(layers, limits);
    }

    private static int skipWhitespace(String s, int pos) {
        while (pos < s.length() && isWhitespace(s.charAt(pos))) {
            pos++;
        }
        return pos;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    private static X509Certificate single(byte[] der, int layer) {
        try {
            return X509Svids.parseOne(der);
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "one string must hold one certificate");
        }
    }

    private static void checkChain(List<X509Certificate> chain) {
        if (chain == null || chain.isEmpty() || chain.size() > MAX_CHAIN_LENGTH) {
            throw new IllegalArgumentException("a chain holds 1 to " + MAX_CHAIN_LENGTH + " certificates");
        }
    }

    private static List<String> encode(List<X509Certificate> chain) {
        List<String> out = new ArrayList<>(chain.size());
        for (X509Certificate cert : chain) {
            try {
                out.add(Codec.b64std(Objects.requireNonNull(cert, "certificate").getEncoded()));
            } catch (CertificateEncodingException e) {
                throw new IllegalArgumentException("certificate cannot be encoded", e);
            }
        }
        return List.copyOf(out);
    }

    /** The number of layers (chains). */
    public int size() {
        return chains.size();
    }

    /** The chain of layer {@code layer} (0 = root), leaf first. */
    public List<X509Certificate> chain(int layer) {
        return chains.get(layer);
    }

    /** Every chain, root layer first. */
    public List<List<X509Certificate>> chains() {
        return chains;
    }

    /** The std-base64 DER strings, root layer first, each chain leaf first. */
    public List<List<String>> toBase64() {
        return base64;
    }

    /** These artifacts plus one more chain (the extending hop's), appended as the new outermost. */
    public IdModeArtifacts append(List<X509Certificate> chain) {
        checkChain(chain);
        List<List<X509Certificate>> c = new ArrayList<>(chains);
        c.add(List.copyOf(chain));
        List<List<String>> b = new ArrayList<>(base64);
        b.add(encode(chain));
        return new IdModeArtifacts(List.copyOf(c), List.copyOf(b));
    }

    /** The artifacts of the innermost {@code depth} layers (those of {@link IdModeToken#prefix}). */
    public IdModeArtifacts prefix(int depth) {
        if (depth < 1 || depth > chains.size()) {
            throw new IndexOutOfBoundsException("prefix depth " + depth + " of " + chains.size());
        }
        return new IdModeArtifacts(chains.subList(0, depth), base64.subList(0, depth));
    }

    /** The JSON form (see the class comment). */
    public String toJson() {
        return Json.write(base64);
    }

    /** The size in bytes of the JSON form, computed without building it. */
    public int encodedSize() {
        int size = 2 + (base64.size() - 1);
        for (List<String> chain : base64) {
            size += 2 + (chain.size() - 1);
            for (String s : chain) {
                size += s.length() + 2;
            }
        }
        return size;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdModeArtifacts other && base64.equals(other.base64);
    }

    @Override
    public int hashCode() {
        return base64.hashCode();
    }

    @Override
    public String toString() {
        return "IdModeArtifacts[layers=" + chains.size() + "]";
    }
}
