package io.spiffeidt.targetwl.account;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of the {@code account} table (docs/design.md "Target database").
 *
 * <p>Thread safety: immutable.
 *
 * @param userId the delegated user ({@code dpr}) the account belongs to
 * @param balance the balance, never negative
 * @param updatedAt when the account was created or last credited
 */
public record Account(String userId, long balance, Instant updatedAt) {

    /** Checks the components. */
    public Account {
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (balance < 0) {
            throw new IllegalArgumentException("balance must not be negative");
        }
    }
}
