package io.spiffeidt.subject.bearerforward;

import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.flow.HopFlow;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.bearerforward.BearerForwardHop;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * bearer-forward at the subject workload (docs/formats/bearer-forward.md). There is no document and
 * no call to the asserting workload: "mint" verifies the user's access token (as every request here
 * does) and keeps it, until it expires, as what travels; the answer says what would travel (the
 * token's issuer, subject, expiry and size), never the token. Use: the token goes to the middle tier
 * unchanged as {@code Authorization: Bearer} over mTLS.
 */
@Component
public class BearerForwardSubjectFlow extends HopFlow {

    private final BearerForwardHop hop;
    private final OAuthTokenVerifier oauth;

    public BearerForwardSubjectFlow(DownstreamClients clients, BearerForwardHop hop, OAuthTokenVerifier oauth) {
        super(Mode.BEARER_FORWARD, clients);
        this.hop = hop;
        this.oauth = oauth;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        return mint(accessToken, oauth.verify(Mode.BEARER_FORWARD, accessToken));
    }

    @Override
    public MintedDocument mint(String accessToken, VerifiedOAuthToken user) {
        KeptDocument kept = new KeptDocument(accessToken, null, user.expiresAt());
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("dpa", user.issuer());
        claims.put("dpr", user.subject());
        claims.put("travels", "the user's access token, unchanged, as Authorization: Bearer over SPIFFE mTLS");
        claims.put("exp", user.expiresAt().getEpochSecond());
        claims.put("signed", true);
        return MintedDocument.withoutDocument(kept, claims);
    }

    @Override
    public AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        return callMiddleTier(operation, hop.begin(document.token(), Role.M_TIER), amount, idempotencyKey);
    }
}
