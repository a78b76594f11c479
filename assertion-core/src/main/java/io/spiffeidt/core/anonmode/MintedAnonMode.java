package io.spiffeidt.core.anonmode;

import java.time.Instant;
import java.util.Objects;

/**
 * A freshly minted Anon-Mode root token (docs/formats/anon-mode.md "Minting").
 *
 * <p>Thread safety: immutable.
 *
 * @param token the one-layer token {@code P(0) . F(0)}; its signature's {@code s} is the bearer
 *     key of the next extension, so the token is a secret of its holder
 * @param rootIdentifier {@code P(0) . R(0)}, what the asserting workload records for introspection
 * @param rootKey the root's {@code iss}: base64url of the fresh root key {@code Y_0}
 * @param issuedAt the root's {@code iat}
 * @param expiresAt the root's {@code exp}
 */
public record MintedAnonMode(String token, String rootIdentifier, String rootKey, Instant issuedAt, Instant expiresAt) {

    /** Requires every value. */
    public MintedAnonMode {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(rootIdentifier, "rootIdentifier");
        Objects.requireNonNull(rootKey, "rootKey");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Never shows the token. */
    @Override
    public String toString() {
        return "MintedAnonMode[rootKey=" + rootKey + ", issuedAt=" + issuedAt + ", expiresAt=" + expiresAt + "]";
    }
}
