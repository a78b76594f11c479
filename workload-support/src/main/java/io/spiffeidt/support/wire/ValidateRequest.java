package io.spiffeidt.support.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /dvid/validate} (docs/formats/dvid.md §6): the DVID and, when the caller
 * wants the introspection answer in the same call, {@code "introspect": true} with optionally the
 * digest of the proof it verified before ({@link IntrospectRequest} has the same digest). The
 * asserting workload verifies the DVID once for both.
 *
 * @param token the DVID
 * @param introspect {@code true} to have the introspection answer in the response; else {@code null}
 * @param proofDigest the held proof's digest (base64url SHA-256), or {@code null}; only with {@code
 *     introspect}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ValidateRequest(
        @NotBlank @Size(max = 262144) String token,
        Boolean introspect,
        @Size(max = 64) @Pattern(regexp = "[A-Za-z0-9_-]{43}") String proofDigest) {

    /** Validation only. */
    public static ValidateRequest of(String token) {
        return new ValidateRequest(token, null, null);
    }

    /** Validation and introspection in one call, offering {@code proofDigest} when not null. */
    public static ValidateRequest introspecting(String token, String proofDigest) {
        return new ValidateRequest(token, Boolean.TRUE, proofDigest);
    }

    /** Whether the introspection answer is asked for. */
    public boolean wantsIntrospection() {
        return Boolean.TRUE.equals(introspect);
    }

    @Override
    public String toString() {
        return "ValidateRequest[token=<" + (token == null ? 0 : token.length()) + " chars>, introspect="
                + wantsIntrospection() + ", proofDigest=" + (proofDigest != null) + "]";
    }
}
