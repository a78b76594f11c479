package io.spiffeidt.subject.mtlsonly;

import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.mtlsonly.MtlsOnlyHop;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * mtls-only at the subject workload (docs/formats/mtls-only.md). There is no document and no call to
 * the asserting workload: "mint" verifies the user's access token (as every request here does) and
 * keeps the {@value MtlsOnlyHop#USER_HEADER} value that names its user, until the token expires; the
 * answer says what would travel (the header, its size), never a token. Use: the header goes to the
 * middle tier over mTLS.
 */
@Component
public class MtlsOnlySubjectFlow extends HopFlow {

    private final MtlsOnlyHop hop;
    private final OAuthTokenVerifier oauth;

    public MtlsOnlySubjectFlow(DownstreamClients clients, MtlsOnlyHop hop, OAuthTokenVerifier oauth) {
        super(Mode.MTLS_ONLY, clients);
        this.hop = hop;
        this.oauth = oauth;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        return mint(accessToken, oauth.verify(Mode.MTLS_ONLY, accessToken));
    }

    @Override
    public MintedDocument mint(String accessToken, VerifiedOAuthToken user) {
        Outgoing outgoing = hop.begin(user, Role.M_TIER);
        KeptDocument kept = new KeptDocument(outgoing.token(), null, user.expiresAt());
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("dpa", user.issuer());
        claims.put("dpr", user.subject());
        claims.put("travels", "header " + MtlsOnlyHop.USER_HEADER + " over SPIFFE mTLS");
        claims.put("header", MtlsOnlyHop.USER_HEADER + ": " + outgoing.token());
        claims.put("signed", false);
        return MintedDocument.withoutDocument(kept, claims);
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        return callMiddleTier(
                operation, Outgoing.wordInHeader(MtlsOnlyHop.USER_HEADER, document.token()), amount, idempotencyKey);
    }
}
