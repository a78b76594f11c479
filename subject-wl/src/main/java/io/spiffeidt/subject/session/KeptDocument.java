package io.spiffeidt.subject.session;

import java.time.Instant;

/**
 * A document minted for a user and mode, kept server-side: the encoded document, its side-car
 * artifacts (ID-Mode), its expiry, and what the flow established about it when it was received, so
 * that a use does not do that work again (docs/operations.md "Kept documents").
 *
 * @param token the encoded document
 * @param artifacts the ID-Mode certificate side-car, or {@code null}
 * @param expiresAt when the document expires
 * @param established the flow's result of receiving the document (LSVID: the decoded document;
 *     ID-Mode: the verified root with what its reuse depends on), or {@code null}: every use starts
 *     from {@code token} again
 */
public record KeptDocument(String token, String artifacts, Instant expiresAt, Object established) {

    /** A document kept without anything established about it. */
    public KeptDocument(String token, String artifacts, Instant expiresAt) {
        this(token, artifacts, expiresAt, null);
    }

    @Override
    public String toString() {
        return "KeptDocument[" + token.length() + " chars, expires " + expiresAt + "]";
    }
}
