package io.spiffeidt.support.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.zkp.OAuthProof;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The answer of every {@code /{mode}/introspect}: the proof record {@code {"msg","zkp","idpKey"}}
 * (io.spiffeidt.core.zkp.OAuthProof, unchanged on the wire), or {@code {"unchanged":true}} when the
 * request offered the digest of exactly the proof the asserting workload keeps, so that a verifier
 * that has verified it does not fetch about 85 KB again.
 *
 * @param msg the OAuth token's {@code header.payload}, or {@code null} when unchanged
 * @param zkp the proof JSON text, or {@code null} when unchanged
 * @param idpKey the IdP key as a JWK text, or {@code null} when unchanged
 * @param unchanged {@code true} when the offered digest is the kept proof's; else {@code null}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IntrospectionAnswer(String msg, String zkp, String idpKey, Boolean unchanged) {

    /**
     * The answer for a kept proof: "unchanged" when {@code offeredDigest} is its digest, else the
     * proof.
     */
    public static IntrospectionAnswer of(OAuthProof kept, String offeredDigest) {
        if (offeredDigest != null
                && MessageDigest.isEqual(
                        kept.digest().getBytes(StandardCharsets.US_ASCII),
                        offeredDigest.getBytes(StandardCharsets.US_ASCII))) {
            return new IntrospectionAnswer(null, null, null, Boolean.TRUE);
        }
        return new IntrospectionAnswer(kept.msg(), kept.zkp(), kept.idpKey(), null);
    }

    /** Whether this answer says the offered proof is still the kept one. */
    public boolean isUnchanged() {
        return Boolean.TRUE.equals(unchanged);
    }

    /**
     * The proof this answer carries.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when it carries none
     */
    public OAuthProof proof() {
        if (msg == null || zkp == null || idpKey == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "introspection answer without a proof");
        }
        return new OAuthProof(msg, zkp, idpKey);
    }

    /** Names the sizes only. */
    @Override
    public String toString() {
        return isUnchanged()
                ? "IntrospectionAnswer[unchanged]"
                : "IntrospectionAnswer[msg=" + (msg == null ? 0 : msg.length()) + " chars, zkp="
                        + (zkp == null ? 0 : zkp.length()) + " chars]";
    }
}
