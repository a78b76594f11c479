package io.spiffeidt.subject.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import io.spiffeidt.support.wire.MintResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Anon-Mode at the subject workload (docs/design.md, Anon-Mode row): the asserting workload mints a root
 * with a fresh key, addressed to this workload; it is verified when received and kept in the user's
 * session. Every use extends the kept root by one anonymous layer, signed with the key the root
 * hands over (its {@code s}), and sends it to the middle tier. Under the {@code thesis} pooling
 * profile two uses of one root are two different extensions of it, both valid (the fork property of
 * the scheme); otherwise a young extension is reused ({@link AnonModeHop#forward(String, Role)}).
 */
@Component
public class AnonModeSubjectFlow extends HopFlow {

    private final AnonModeHop hop;

    public AnonModeSubjectFlow(DownstreamClients clients, AnonModeHop hop) {
        super(Mode.ANON_MODE, clients);
        this.hop = hop;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        MintResponse minted = callAsserting(new AccessTokenRequest(accessToken), MintResponse.class);
        if (minted.token() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered no Anon-Mode root");
        }
        // the root-only check: signature, times, audience = this workload, delegation in the root
        VerifiedResult root = hop.accept(Received.of(minted.token())).result();
        if (root.depth() != 1) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered more than a root");
        }
        if (minted.oauth() != null) {
            root.delegation()
                    .requireUser(minted.oauth().issuer(), minted.oauth().subject());
        }
        KeptDocument kept =
                new KeptDocument(minted.token(), null, root.outermost().expiresAt());
        return new MintedDocument(kept, null, claims(root));
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        Outgoing extended = hop.forward(document.token(), Role.M_TIER);
        return callMiddleTier(operation, extended, amount, idempotencyKey);
    }

    /** What the page shows of the verified root: its claims ({@code iss} is the fresh root key). */
    private static Map<String, Object> claims(VerifiedResult root) {
        LayerInfo layer = root.outermost();
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("aud", layer.audience());
        claims.put("dpa", root.delegation().dpa());
        claims.put("dpr", root.delegation().dpr());
        claims.put("exp", layer.expiresAt() == null ? null : layer.expiresAt().getEpochSecond());
        claims.put("iat", layer.issuedAt() == null ? null : layer.issuedAt().getEpochSecond());
        claims.put("iss", layer.issuer());
        return claims;
    }
}
