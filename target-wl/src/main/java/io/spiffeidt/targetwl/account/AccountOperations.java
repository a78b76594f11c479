package io.spiffeidt.targetwl.account;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.wire.AccountResponse;
import java.util.List;
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
        if (amount == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "deposit needs an amount");
        }
        long balance = metrics.time(
                mode, Operation.DB_QUERY, () -> accounts.deposit(delegation.dpa(), delegation.dpr(), amount));
        return new AccountResponse(delegation.dpr(), balance, mode.pathSegment(), path);
    }
}
