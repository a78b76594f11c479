package io.spiffeidt.subject.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import io.spiffeidt.support.wire.MintResponse;
import java.time.Instant;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * DVID at the subject workload (docs/design.md, DVID row): minted by the asserting workload over an
 * mTLS connection that authenticated it, kept in the user's session, forwarded unchanged; it is
 * read (not verified) only to show it and to know when to mint again.
 */
@Component
public class DvidSubjectFlow extends HopFlow {

    private final DvidHop hop;

    public DvidSubjectFlow(DownstreamClients clients, DvidHop hop) {
        super(Mode.DVID, clients);
        this.hop = hop;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        MintResponse minted = callAsserting(new AccessTokenRequest(accessToken), MintResponse.class);
        CompactJws dvid;
        try {
            dvid = hop.accept(Received.of(minted.token()));
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered a malformed DVID", e);
        }
        if (!(dvid.payload().get("exp") instanceof Number exp)) {
            throw new AssertionException(ErrorCode.MALFORMED, "DVID without exp");
        }
        KeptDocument kept = new KeptDocument(minted.token(), null, Instant.ofEpochSecond(exp.longValue()));
        return new MintedDocument(kept, dvid.header(), dvid.payload());
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        // a DVID goes on as minted: the subject workload neither verifies nor extends it
        return callMiddleTier(operation, hop.forward(document.token(), Role.M_TIER), amount, idempotencyKey);
    }
}
