package io.spiffeidt.targetwl.account;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The two account operations every mode ends in, keyed by the verified delegation's issuer and user
 * ({@code dpa}, {@code dpr}): a user name is only unique at its IdP.
 */
@Component
public class AccountOperations {

    private final AccountRepository accounts;
    private final OperationMetrics metrics;

    public AccountOperations(AccountRepository accounts, OperationMetrics metrics) {
        this.accounts = accounts;
        this.metrics = metrics;
    }

    /** The user's balance (an account with 0 is opened on first sight). */
    public AccountResponse balance(Mode mode, Delegation delegation, List<String> path) {
        long balance =
                metrics.time(mode, Operation.DB_QUERY, () -> accounts.balance(delegation.dpa(), delegation.dpr()));
        return new AccountResponse(delegation.dpr(), balance, mode.pathSegment(), path);
    }

    /** Deposits a positive amount; rejects a missing, non-positive or overflowing one. */
    public AccountResponse deposit(Mode mode, Delegation delegation, Long amount, List<String> path) {
        return deposit(mode, delegation, amount, Optional.empty(), path);
    }

    /**
     * Deposits a positive amount once per idempotency key, when there is one (docs/formats/common.md
     * "Idempotent deposits"): a retry with the same key and request answers the first balance.
     */
    public AccountResponse deposit(
            Mode mode, Delegation delegation, Long amount, Optional<IdempotencyKey> key, List<String> path) {
        if (amount == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "deposit needs an amount");
        }
        long balance = metrics.time(
                mode,
                Operation.DB_QUERY,
                () -> key.isPresent()
                        ? accounts.deposit(
                                delegation.dpa(), delegation.dpr(), amount, key.get(), fingerprint(mode, amount))
                        : accounts.deposit(delegation.dpa(), delegation.dpr(), amount));
        return new AccountResponse(delegation.dpr(), balance, mode.pathSegment(), path);
    }

    /**
     * The request fingerprint of a deposit: SHA-256 (lowercase hex) of its canonical body, the JSON
     * object {@code {"amount":<amount>,"mode":"<mode>"}} with sorted members and no spaces. The mode
     * is part of it: the same key through another mode is another request.
     */
    static String fingerprint(Mode mode, long amount) {
        String canonical = "{\"amount\":" + amount + ",\"mode\":\"" + mode.pathSegment() + "\"}";
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
