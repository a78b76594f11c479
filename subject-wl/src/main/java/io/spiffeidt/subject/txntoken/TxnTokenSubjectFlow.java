package io.spiffeidt.subject.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.time.Instant;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The Txn-Token mode at the subject workload, the external endpoint of the draft's basic flow
 * (docs/formats/txn-token.md "Flows"): it exchanges the user's access token for a Txn-Token at the
 * Txn-Token Service (the asserting workload, over mTLS that authenticates both) and sends the token
 * to the middle tier in the {@value TxnTokenHop#HEADER} request header (draft §12.1); it reads the
 * token (not verifies it) only to show it and to know when to ask again.
 */
@Component
public class TxnTokenSubjectFlow extends HopFlow {

    private final TxnTokenHop hop;

    public TxnTokenSubjectFlow(DownstreamClients clients, TxnTokenHop hop) {
        super(Mode.TXN_TOKEN, clients);
        this.hop = hop;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        String token = hop.exchange(accessToken);
        CompactJws jws;
        try {
            jws = hop.accept(Received.of(token));
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "the Txn-Token Service answered a malformed token", e);
        }
        if (!(jws.payload().get("exp") instanceof Number exp)) {
            throw new AssertionException(ErrorCode.MALFORMED, "Txn-Token without exp");
        }
        KeptDocument kept = new KeptDocument(token, null, Instant.ofEpochSecond(exp.longValue()));
        return new MintedDocument(kept, jws.header(), jws.payload());
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        // the token goes on as issued, in the Txn-Token header: verified at every tier after this one
        return callMiddleTier(operation, hop.forward(document.token(), Role.M_TIER), amount, idempotencyKey);
    }
}
