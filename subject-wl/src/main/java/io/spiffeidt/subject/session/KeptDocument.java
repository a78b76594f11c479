package io.spiffeidt.subject.session;

import java.time.Instant;

/**
 * A document minted for a user and mode, kept server-side: the encoded document, its side-car
 * artifacts (ID-Mode), and its expiry.
 */
public record KeptDocument(String token, String artifacts, Instant expiresAt) {

    @Override
    public String toString() {
        return "KeptDocument[" + token.length() + " chars, expires " + expiresAt + "]";
    }
}
