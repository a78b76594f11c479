package io.spiffeidt.subject.session;

/** A user as the OAuth token names them: issuer and subject. */
public record UserKey(String issuer, String subject) {}
