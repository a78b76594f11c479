package io.spiffeidt.targetwl.idmode;

import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode at the target (docs/design.md, ID-Mode row): verifies the whole chain and its presenter (the
 * mTLS peer, by SPIFFE ID and key), introspects the root at the asserting workload and checks the
 * proof against the root's {@code dpa}/{@code dpr} ({@link IdModeHop#introspection()}; off with
 * {@code spiffeidt.target.id-mode.introspect=false}), then serves the account of {@code dpr} with the
 * verified path (the issuers from the asserting workload outwards, then this workload).
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeTargetController extends TargetController<VerifiedIdMode> {

    public IdModeTargetController(AccountOperations accounts, IdModeHop hop, IdModeTargetProperties properties) {
        super(accounts, hop, properties.introspect());
    }

    @Override
    protected List<String> path(Verified<VerifiedIdMode> verified) {
        List<String> path = new ArrayList<>(verified.document().path().size() + 1);
        verified.document().path().forEach(id -> path.add(id.toString()));
        path.add(hop.self().toString());
        return path;
    }
}
