package io.spiffeidt.support.wire;

/** The answer of a mint call: the document, its side-car artifacts (ID-Mode) and the OAuth summary. */
public record MintResponse(String token, String artifacts, OAuthSummary oauth) {}
