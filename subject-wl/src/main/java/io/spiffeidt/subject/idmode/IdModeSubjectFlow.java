package io.spiffeidt.subject.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.idmode.IdModeClaims;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import io.spiffeidt.support.wire.MintResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * ID-Mode at the subject workload (docs/design.md, ID-Mode row): the asserting workload mints the root
 * addressed to this workload; it is verified when received, and every use extends it with a fresh
 * layer addressed to the middle tier, signed with this workload's SVID key (with the memo {@code
 * idmode-extension} on a young extension is reused, {@link IdModeHop#forward}). With the memo {@code
 * subject-session} on the verified root is kept with the session and reused while its trust bundles
 * and times hold ({@link IdModeHop#reuse}); with it off it is verified again before each use (as the
 * original did).
 */
@Component
public class IdModeSubjectFlow extends HopFlow {

    private final IdModeHop hop;

    public IdModeSubjectFlow(DownstreamClients clients, IdModeHop hop, Memos memos) {
        super(Mode.ID_MODE, clients, memos);
        this.hop = hop;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        MintResponse minted = callAsserting(new AccessTokenRequest(accessToken), MintResponse.class);
        if (minted.token() == null || minted.artifacts() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered no ID-Mode root");
        }
        IdModeHop.KeptAnswer answer =
                keepsVerified() ? hop.acceptToKeep(new Received(minted.token(), minted.artifacts())) : null;
        VerifiedIdMode root = answer != null ? answer.verified() : verify(minted.token(), minted.artifacts());
        if (root.depth() != 1) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered more than a root");
        }
        KeptDocument kept = KeptDocument.idMode(
                minted.token(), minted.artifacts(), root.result().outermost().expiresAt(), answer);
        return new MintedDocument(kept, null, claims(root.rootClaims()));
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        VerifiedIdMode root = document.verifiedIdMode() != null
                ? hop.reuse(document.verifiedIdMode()).orElseGet(() -> verify(document.token(), document.artifacts()))
                : verify(document.token(), document.artifacts());
        Outgoing extended = hop.forward(root, Role.M_TIER);
        return callMiddleTier(operation, extended, amount, idempotencyKey);
    }

    /**
     * The root came from the asserting workload over a client connection that authorized its SPIFFE
     * ID, so there is no presenter to bind; every other check runs, with this workload as audience.
     */
    private VerifiedIdMode verify(String token, String artifacts) {
        return hop.accept(new Received(token, artifacts)).document();
    }

    private static Map<String, Object> claims(IdModeClaims c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("aud", c.audience().toString());
        m.put("dpa", c.dpa());
        m.put("dpr", c.dpr());
        m.put("exp", c.expiresAt() == null ? null : c.expiresAt().getEpochSecond());
        m.put("iat", c.issuedAt().getEpochSecond());
        m.put("iss", c.issuer().toString());
        return m;
    }
}
