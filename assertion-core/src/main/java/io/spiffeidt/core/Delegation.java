package io.spiffeidt.core;

import java.util.Objects;

/**
 * Who the call path acts for: the user of the external OAuth token and who asserted it
 * (docs/formats/common.md "The verified result").
 *
 * <p>Thread safety: immutable.
 *
 * @param dpa delegated principal authority: the OAuth token's {@code iss}
 * @param dpr delegated principal: the OAuth token's {@code sub}
 * @param assertedBy the SPIFFE ID (or, in Anon-Mode, the root key) of the asserting workload
 */
public record Delegation(String dpa, String dpr, String assertedBy) {
    /** Requires all three values. */
    public Delegation {
        Objects.requireNonNull(dpa, "dpa");
        Objects.requireNonNull(dpr, "dpr");
        Objects.requireNonNull(assertedBy, "assertedBy");
    }

    /**
     * Requires that this delegation names the user of an OAuth token: {@code dpa} is its issuer and
     * {@code dpr} its subject (what a minted document must say of the token it was minted for).
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} otherwise
     */
    public void requireUser(String issuer, String subject) {
        if (!dpa.equals(issuer) || !dpr.equals(subject)) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, "the delegation does not name the user of the access token");
        }
    }
}
