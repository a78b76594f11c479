package io.spiffeidt.mtier.txntoken;

import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Txn-Token mode at the middle tier (docs/formats/txn-token.md "Flows"): verifies the token
 * with the Txn-Token Service's keys, then, while {@code spiffeidt.txn-token.replace} is on, has the
 * service replace it by one that adds this workload to the chain of requesting workloads (draft
 * §13.15), else forwards it unchanged (draft §12.2); {@link TxnTokenHop#forward} decides.
 */
@RestController
@RequestMapping("/txn-token")
public class TxnTokenMiddleTierController extends MiddleTierController<TxnToken> {

    public TxnTokenMiddleTierController(DownstreamClients clients, TxnTokenHop hop) {
        super(clients, hop);
    }
}
