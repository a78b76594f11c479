package io.spiffeidt.support.wire;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /anon-mode/introspect} (docs/formats/anon-mode.md "Endpoints"): the root {@code
 * P(0) . R(0)} of an Anon-Mode token, never the whole token (the hops beyond the root are none of
 * the asserting workload's business, and the last segment of a token is a bearer key), and
 * optionally the digest of the proof the verifier already verified for that root (see {@link
 * IntrospectRequest}).
 *
 * @param root the root {@code P(0) . R(0)}
 * @param proofDigest the held proof's digest (base64url SHA-256), or {@code null}
 */
public record AnonModeIntrospectRequest(
        @NotBlank @Size(max = 262144) String root,
        @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9_-]{43}") String proofDigest) {

    /** Asks for the proof of {@code root} without offering a digest. */
    public AnonModeIntrospectRequest(String root) {
        this(root, null);
    }

    @Override
    public String toString() {
        return "AnonModeIntrospectRequest[root=<" + (root == null ? 0 : root.length()) + " chars>, proofDigest="
                + (proofDigest != null) + "]";
    }
}
