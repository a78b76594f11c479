package io.spiffeidt.targetwl.txntoken;

import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Txn-Token mode at the target (docs/formats/txn-token.md "Flows"): verifies the token with the
 * Txn-Token Service's keys, offline but for the key set; the account is the token's {@code sub} at
 * its {@code tctx.dpa}. It makes no call per request to the service.
 */
@RestController
@RequestMapping("/txn-token")
public class TxnTokenTargetController extends TargetController<TxnToken> {

    public TxnTokenTargetController(AccountOperations accounts, TxnTokenHop hop) {
        super(accounts, hop);
    }

    /**
     * The service that signed, then the workloads that requested the token (the subject workload,
     * and the middle tier when it had the token replaced), as the service asserts them, then this
     * workload.
     */
    @Override
    protected List<String> path(Verified<TxnToken> verified) {
        TxnToken token = verified.document();
        List<String> path = new ArrayList<>(token.requestChain().size() + 2);
        path.add(verified.delegation().assertedBy());
        path.addAll(token.requestChain());
        path.add(hop.self().toString());
        return path;
    }
}
