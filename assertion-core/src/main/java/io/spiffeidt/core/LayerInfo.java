package io.spiffeidt.core;

import java.time.Instant;

/**
 * One verified layer of a document (docs/formats/common.md "The verified result").
 *
 * <p>Thread safety: immutable.
 *
 * @param issuer the layer's issuer (SPIFFE ID; in Anon-Mode the encoded key), or {@code null}
 * @param audience the layer's audience, or {@code null} where the format has none
 * @param issuedAt {@code iat}, or {@code null}
 * @param expiresAt {@code exp} (or the original-compatible replacement), or {@code null}
 */
public record LayerInfo(String issuer, String audience, Instant issuedAt, Instant expiresAt) {}
