package io.spiffeidt.core.idmode;

import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;

/**
 * Builds layers of the dot format (docs/formats/id-mode.md "Wire format" and "Extension"): the root
 * {@code P(0) . S(0)} and a wrapping layer {@code P(k) . T(k-1) . S(k)}. Shared by the minter, the
 * extender and the tests that need hand-made layers.
 *
 * <p>Thread safety: stateless.
 */
final class IdModeSigning {

    private IdModeSigning() {}

    /** The root token: {@code base64url(P0) "." base64url(sign(base64url(P0)))}. */
    static String root(IdModeClaims claims, PrivateKey key, Provider provider) {
        String p = Codec.b64url(claims.toJson());
        byte[] input = p.getBytes(StandardCharsets.US_ASCII);
        byte[] sig = Es256.sign(key, input, 0, input.length, provider);
        return p + "." + Codec.b64url(sig);
    }

    /**
     * Wraps {@code inner} (the token exactly as received): signs {@code P "." inner} and returns
     * {@code P "." inner "." S}.
     */
    static String wrap(String inner, IdModeClaims claims, PrivateKey key, Provider provider) {
        String p = Codec.b64url(claims.toJson());
        StringBuilder sb = new StringBuilder(p.length() + inner.length() + 100);
        sb.append(p).append('.').append(inner);
        byte[] input = sb.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] sig = Es256.sign(key, input, 0, input.length, provider);
        return sb.append('.').append(Codec.b64url(sig)).toString();
    }

    /** Assembles a token from already-encoded segments: {@code P "." inner "." S}. */
    static String assemble(String payloadSegment, String inner, String signatureSegment) {
        if (inner == null) {
            return payloadSegment + "." + signatureSegment;
        }
        return payloadSegment + "." + inner + "." + signatureSegment;
    }
}
