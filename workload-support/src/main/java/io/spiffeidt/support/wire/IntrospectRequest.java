package io.spiffeidt.support.wire;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /id-mode/introspect} and {@code POST /dvid/introspect}: the document (for
 * ID-Mode its root {@code P(0).S(0)}; for DVID the whole DVID) and, optionally, the digest of the
 * proof the verifier already verified for it ({@code io.spiffeidt.core.zkp.OAuthProof#digest()}).
 * When the asserting workload still keeps a proof with that digest it answers {@link
 * IntrospectionAnswer#unchanged()} instead of shipping the proof again.
 *
 * @param token the document
 * @param proofDigest the held proof's digest (base64url SHA-256), or {@code null}
 */
public record IntrospectRequest(
        @NotBlank @Size(max = 262144) String token,
        @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9_-]{43}") String proofDigest) {

    /** Asks for the proof of {@code token}, offering {@code proofDigest} when not null. */
    public static IntrospectRequest of(String token, String proofDigest) {
        return new IntrospectRequest(token, proofDigest);
    }

    @Override
    public String toString() {
        return "IntrospectRequest[token=<" + (token == null ? 0 : token.length()) + " chars>, proofDigest="
                + (proofDigest != null) + "]";
    }
}
