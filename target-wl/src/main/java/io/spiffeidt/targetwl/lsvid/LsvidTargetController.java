package io.spiffeidt.targetwl.lsvid;

import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.lsvid.LsvidHop;
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
 * LSVID at the target (docs/design.md, LSVID row): verifies the whole document offline (anchored bases,
 * every layer, the pinned delegation exactly once, audience = this workload, bearer = the mTLS peer
 * by name and key) and reads {@code dpr} from the delegation layer the verifier found. It makes no
 * call to the asserting workload.
 */
@RestController
@RequestMapping("/lsvid")
public class LsvidTargetController {

    private static final Mode MODE = Mode.LSVID;

    private final AccountOperations accounts;
    private final LsvidHop hop;

    public LsvidTargetController(AccountOperations accounts, LsvidHop hop) {
        this.accounts = accounts;
        this.hop = hop;
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        Verified<Lsvid> verified = hop.verify(Received.of(request), caller);
        return accounts.balance(MODE, verified.delegation(), path(verified));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        Verified<Lsvid> verified = hop.verify(Received.of(request), caller);
        return accounts.deposit(MODE, verified.delegation(), request.amount(), path(verified));
    }

    /**
     * The issuers of the extension layers, innermost first (the base's issuer is the trust domain),
     * then this workload, which verified them: the same shape as the other modes' paths.
     */
    private List<String> path(Verified<Lsvid> verified) {
        List<LayerInfo> layers = verified.result().layers();
        List<String> path = new ArrayList<>(layers.size());
        for (int i = layers.size() - 2; i >= 0; i--) {
            path.add(layers.get(i).issuer());
        }
        path.add(hop.self().toString());
        return path;
    }
}
