package io.spiffeidt.subject.wimse;

import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.subject.txntoken.TxnTokenSubjectFlow;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wimse.WimseHop;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The wimse mode at the subject workload (docs/formats/wimse.md): the user's Txn-Token is obtained
 * exactly as in mode txn-token (its flow's exchange at the Txn-Token Service) and kept; each call to
 * the middle tier carries it with this workload's WIT and a WPT made for that call.
 */
@Component
public class WimseSubjectFlow extends HopFlow {

    private final WimseHop hop;
    private final TxnTokenSubjectFlow txnToken;

    public WimseSubjectFlow(DownstreamClients clients, WimseHop hop, TxnTokenSubjectFlow txnToken) {
        super(Mode.WIMSE, clients);
        this.hop = hop;
        this.txnToken = txnToken;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        return txnToken.mint(accessToken);
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        return callMiddleTier(operation, hop.forward(document.token(), Role.M_TIER, operation), amount, idempotencyKey);
    }
}
