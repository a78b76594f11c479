package io.spiffeidt.targetwl.idmode;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.targetwl.account.AccountOperations;
import jakarta.validation.Valid;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode at the target (docs/design.md, ID-Mode row): verifies the whole chain and its presenter (the
 * mTLS peer, by SPIFFE ID and key), optionally introspects the root at the asserting workload and
 * checks the proof against the root's {@code dpa}/{@code dpr} ({@link IdModeHop#verifyIntrospected}),
 * then serves the account of {@code dpr} with the verified path (the issuers from the asserting
 * workload outwards, then this workload).
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeTargetController {

    private static final Mode MODE = Mode.ID_MODE;

    private final boolean introspect;

    private final AccountOperations accounts;
    private final IdModeHop hop;

    public IdModeTargetController(AccountOperations accounts, IdModeHop hop, IdModeTargetProperties properties) {
        this.accounts = accounts;
        this.hop = hop;
        this.introspect = properties.introspect();
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        Verified<VerifiedIdMode> verified = verify(request, caller);
        return accounts.balance(MODE, verified.delegation(), path(verified));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        Verified<VerifiedIdMode> verified = verify(request, caller);
        return accounts.deposit(MODE, verified.delegation(), request.amount(), path(verified));
    }

    private Verified<VerifiedIdMode> verify(DocumentRequest request, Caller caller) {
        Received received = Received.of(request);
        return introspect ? hop.verifyIntrospected(received, caller) : hop.verify(received, caller);
    }

    private List<String> path(Verified<VerifiedIdMode> verified) {
        List<String> path = new ArrayList<>(verified.document().path().size() + 1);
        verified.document().path().forEach(id -> path.add(id.toString()));
        path.add(hop.self().toString());
        return path;
    }
}
