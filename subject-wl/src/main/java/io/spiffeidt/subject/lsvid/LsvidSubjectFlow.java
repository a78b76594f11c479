package io.spiffeidt.subject.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import io.spiffeidt.support.wire.LsvidExtendRequest;
import io.spiffeidt.support.wire.LsvidExtendResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * LSVID at the subject workload (docs/formats/lsvid.md "Flows"). Mint: the own base document (kept current
 * with the SVID) extended with {@code aud} = the asserting workload, sent with the user's access
 * token to {@code POST /lsvid/mint}; the answer is verified (delegation present, audience =
 * this workload) and kept. Use: the kept document is extended with {@code aud} = the middle tier,
 * signed with the current SVID key. The document is kept decoded (the memo {@code subject-session})
 * and a young extension of it is reused ({@link LsvidHop#forward}, the memo {@code lsvid-extension});
 * with the memos off every use parses it again and signs a new extension as the original did.
 */
@Component
public class LsvidSubjectFlow extends HopFlow {

    private final LsvidHop hop;

    public LsvidSubjectFlow(DownstreamClients clients, LsvidHop hop, Memos memos) {
        super(Mode.LSVID, clients, memos);
        this.hop = hop;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        Outgoing request = hop.begin(Role.ASSERTING_WL);
        LsvidExtendResponse answer =
                callAsserting(new LsvidExtendRequest(accessToken, request.token()), LsvidExtendResponse.class);
        if (answer == null || answer.lsvid() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered no LSVID");
        }
        Verified<Lsvid> minted = hop.accept(Received.of(answer.lsvid()));
        if (answer.oauth() != null) {
            minted.delegation()
                    .requireUser(answer.oauth().issuer(), answer.oauth().subject());
        }
        KeptDocument kept = KeptDocument.lsvid(
                answer.lsvid(), minted.result().outermost().expiresAt(), keepsVerified() ? minted.document() : null);
        return new MintedDocument(kept, null, claims(minted.result()));
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        Lsvid kept = document.decodedLsvid() != null ? document.decodedLsvid() : hop.parse(document.token());
        Outgoing extended = hop.forward(kept, Role.M_TIER);
        return callMiddleTier(operation, extended, amount, idempotencyKey);
    }

    /** What the page shows of a verified LSVID: the delegation and every layer, outermost first. */
    private static Map<String, Object> claims(VerifiedResult verified) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("dpa", verified.delegation().dpa());
        claims.put("dpr", verified.delegation().dpr());
        claims.put("assertedBy", verified.delegation().assertedBy());
        claims.put("depth", verified.depth());
        List<Map<String, Object>> layers = new ArrayList<>();
        for (LayerInfo layer : verified.layers()) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("iss", layer.issuer());
            if (layer.audience() != null) {
                l.put("aud", layer.audience());
            }
            l.put("iat", layer.issuedAt().getEpochSecond());
            l.put("exp", layer.expiresAt().getEpochSecond());
            layers.add(l);
        }
        claims.put("layers", layers);
        return claims;
    }
}
