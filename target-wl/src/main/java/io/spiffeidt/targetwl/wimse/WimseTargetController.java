package io.spiffeidt.targetwl.wimse;

import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.wimse.WimseDocument;
import io.spiffeidt.support.wimse.WimseHop;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The wimse mode at the target (docs/formats/wimse.md): verifies the middle tier's WIT and WPT and
 * the Txn-Token they bind, offline but for the two key sets; the account is the Txn-Token's {@code
 * sub} at its {@code tctx.dpa}.
 */
@RestController
@RequestMapping("/wimse")
public class WimseTargetController extends TargetController<WimseDocument> {

    public WimseTargetController(AccountOperations accounts, WimseHop hop) {
        super(accounts, hop);
    }

    /**
     * The Txn-Token Service that signed, the workloads that requested the token as it asserts them,
     * the workload whose WIT and WPT this target verified when the chain does not end with it, then
     * this workload.
     */
    @Override
    protected List<String> path(Verified<WimseDocument> verified) {
        TxnToken token = verified.document().token();
        List<String> path = new ArrayList<>(token.requestChain().size() + 3);
        path.add(verified.delegation().assertedBy());
        path.addAll(token.requestChain());
        String sender = verified.document().proof().workload().toString();
        if (!path.get(path.size() - 1).equals(sender)) {
            path.add(sender);
        }
        path.add(hop.self().toString());
        return path;
    }
}
