package io.spiffeidt.targetwl.lsvid;

import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.ArrayList;
import java.util.List;
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
public class LsvidTargetController extends TargetController<Lsvid> {

    public LsvidTargetController(AccountOperations accounts, LsvidHop hop) {
        super(accounts, hop);
    }

    /**
     * The issuers of the extension layers, innermost first (the base's issuer is the trust domain),
     * then this workload, which verified them: the same shape as the other modes' paths.
     */
    @Override
    protected List<String> path(Verified<Lsvid> verified) {
        List<LayerInfo> layers = verified.result().layers();
        List<String> path = new ArrayList<>(layers.size());
        for (int i = layers.size() - 2; i >= 0; i--) {
            path.add(layers.get(i).issuer());
        }
        path.add(hop.self().toString());
        return path;
    }
}
