package io.spiffeidt.support.wire;

import java.util.List;

/**
 * The target workload's answer to balance and deposit: the user, the balance, the mode and the call
 * path the target verified (issuers, innermost first), as far as the mode reveals it.
 */
public record AccountResponse(String user, long balance, String mode, List<String> path) {
    /** Copies the path. */
    public AccountResponse {
        path = path == null ? List.of() : List.copyOf(path);
    }
}
