package io.spiffeidt.targetwl.dvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.targetwl.account.AccountOperations;
import jakarta.validation.Valid;
import java.util.List;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * DVID at the target (docs/design.md, DVID row): {@code sub} must be the subject workload; the account
 * is the DVID's {@code dpr}. Where the DVID is verified (here with the asserting workload's keys, or
 * remotely at the asserting workload under {@code thesis}, as in the original) is the hop's
 * business ({@link DvidHop#verify}; docs/formats/dvid.md §6).
 */
@RestController
@RequestMapping("/dvid")
public class DvidTargetController {

    private static final Mode MODE = Mode.DVID;

    private final AccountOperations accounts;
    private final DvidHop hop;

    public DvidTargetController(AccountOperations accounts, DvidHop hop) {
        this.accounts = accounts;
        this.hop = hop;
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        Verified<VerifiedDvid> verified = hop.verify(Received.of(request), caller);
        return accounts.balance(MODE, verified.delegation(), path(verified.document()));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        Verified<VerifiedDvid> verified = hop.verify(Received.of(request), caller);
        return accounts.deposit(MODE, verified.delegation(), request.amount(), path(verified.document()));
    }

    private static List<String> path(VerifiedDvid dvid) {
        return List.of(dvid.result().delegation().assertedBy(), dvid.subject().toString());
    }
}
