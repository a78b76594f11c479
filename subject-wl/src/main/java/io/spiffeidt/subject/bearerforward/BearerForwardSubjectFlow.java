package io.spiffeidt.subject.bearerforward;

import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.flow.BaselineFlow;
import io.spiffeidt.support.bearerforward.BearerForwardHop;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * bearer-forward at the subject workload (docs/formats/bearer-forward.md): "mint" keeps the user's
 * verified access token as what travels; the answer says what would travel (the token's issuer,
 * subject, expiry), never the token. Use: the token goes to the middle tier unchanged as {@code
 * Authorization: Bearer} over mTLS ({@link BearerForwardHop#forward(String, Role)}).
 */
@Component
public class BearerForwardSubjectFlow extends BaselineFlow {

    private final BearerForwardHop hop;

    public BearerForwardSubjectFlow(DownstreamClients clients, BearerForwardHop hop, OAuthTokenVerifier oauth) {
        super(Mode.BEARER_FORWARD, clients, oauth);
        this.hop = hop;
    }

    @Override
    protected String kept(String accessToken, VerifiedOAuthToken user) {
        return accessToken;
    }

    @Override
    protected void describe(Map<String, Object> claims, String kept, VerifiedOAuthToken user) {
        claims.put("travels", "the user's access token, unchanged, as Authorization: Bearer over SPIFFE mTLS");
        claims.put("exp", user.expiresAt().getEpochSecond());
        claims.put("signed", true);
    }

    @Override
    protected Outgoing outgoing(String kept) {
        return hop.forward(kept, Role.M_TIER);
    }
}
