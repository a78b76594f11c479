package io.spiffeidt.subject.session;

import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.support.idmode.IdModeHop;
import java.time.Instant;

/**
 * A document minted for a user and mode, kept server-side: the encoded document, its side-car
 * artifacts (ID-Mode), its expiry, and what the flow established about it when it was received, so
 * that a use does not do that work again (docs/operations.md "Kept documents"; kept only while the
 * memo {@value #MEMO} is on).
 *
 * @param token the encoded document
 * @param artifacts the ID-Mode certificate side-car, or {@code null}
 * @param expiresAt when the document expires
 * @param decodedLsvid LSVID: the decoded document, or {@code null}: every use decodes {@code token}
 * @param verifiedIdMode ID-Mode: the verified root with what its reuse depends on, or {@code null}:
 *     every use verifies {@code token} again
 */
public record KeptDocument(
        String token, String artifacts, Instant expiresAt, Lsvid decodedLsvid, IdModeHop.KeptAnswer verifiedIdMode) {

    /** The memo whose settings say whether what a flow established is kept with the document. */
    public static final String MEMO = "subject-session";

    /** A document kept without anything established about it. */
    public KeptDocument(String token, String artifacts, Instant expiresAt) {
        this(token, artifacts, expiresAt, null, null);
    }

    /** An LSVID document kept with its decoded form ({@code null}: none). */
    public static KeptDocument lsvid(String token, Instant expiresAt, Lsvid decoded) {
        return new KeptDocument(token, null, expiresAt, decoded, null);
    }

    /** An ID-Mode root kept with what its verification established ({@code null}: nothing). */
    public static KeptDocument idMode(
            String token, String artifacts, Instant expiresAt, IdModeHop.KeptAnswer verified) {
        return new KeptDocument(token, artifacts, expiresAt, null, verified);
    }

    @Override
    public String toString() {
        return "KeptDocument[" + token.length() + " chars, expires " + expiresAt + "]";
    }
}
