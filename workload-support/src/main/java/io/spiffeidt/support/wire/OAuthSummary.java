package io.spiffeidt.support.wire;

import java.time.Instant;

/** What the asserting workload tells about the OAuth token it verified. */
public record OAuthSummary(String issuer, String subject, Instant expiresAt) {}
