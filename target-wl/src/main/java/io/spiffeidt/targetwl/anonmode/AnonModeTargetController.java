package io.spiffeidt.targetwl.anonmode;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.anonmode.VerifiedAnonMode;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Anon-Mode at the target (docs/design.md, Anon-Mode row; docs/formats/anon-mode.md "Verification"): the
 * concatenated verification of the whole token, then the root binding (step 5): the asserting
 * workload must know the root {@code P(0).R(0)} ({@code POST /anon-mode/introspect}) and its proof
 * must show an IdP-signed OAuth token for the root's {@code dpa}/{@code dpr} ({@link
 * AnonModeHop#introspection()}). The account is the root's {@code dpr}.
 *
 * <p>The path this mode reveals: the asserting workload (known from introspection), one entry per
 * hop, which is {@code anonymous} unless the hop wrote an {@code iid} (original-compatible runs
 * only; an unverified claim of the hop), and this workload.
 */
@RestController
@RequestMapping("/anon-mode")
public class AnonModeTargetController extends TargetController<VerifiedAnonMode> {

    /** The path entry of a hop that does not name itself. */
    static final String ANONYMOUS_HOP = "anonymous";

    public AnonModeTargetController(AccountOperations accounts, AnonModeHop hop) {
        super(accounts, hop, true);
    }

    /**
     * The asserting workload, then every hop from the innermost outwards (its {@code iid}, or
     * {@value #ANONYMOUS_HOP}), then this workload.
     */
    @Override
    protected List<String> path(Verified<VerifiedAnonMode> verified) {
        List<String> path = new ArrayList<>(verified.depth() + 1);
        path.add(hop.idOf(Role.ASSERTING_WL).toString());
        verified.document()
                .hopIdentities()
                .forEach(id -> path.add(id.map(SpiffeId::toString).orElse(ANONYMOUS_HOP)));
        path.add(hop.self().toString());
        return path;
    }
}
