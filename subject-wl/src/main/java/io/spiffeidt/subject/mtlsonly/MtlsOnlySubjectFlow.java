package io.spiffeidt.subject.mtlsonly;

import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.flow.BaselineFlow;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.mtlsonly.MtlsOnlyHop;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * mtls-only at the subject workload (docs/formats/mtls-only.md): "mint" keeps the {@value
 * MtlsOnlyHop#USER_HEADER} value that names the user of the verified access token ({@link
 * MtlsOnlyHop#begin}); the answer says what would travel (the header, its size), never a token. Use:
 * the header goes to the middle tier over mTLS.
 */
@Component
public class MtlsOnlySubjectFlow extends BaselineFlow {

    private final MtlsOnlyHop hop;

    public MtlsOnlySubjectFlow(DownstreamClients clients, MtlsOnlyHop hop, OAuthTokenVerifier oauth) {
        super(Mode.MTLS_ONLY, clients, oauth);
        this.hop = hop;
    }

    @Override
    protected String kept(String accessToken, VerifiedOAuthToken user) {
        return hop.begin(user, Role.M_TIER).token();
    }

    @Override
    protected void describe(Map<String, Object> claims, String kept, VerifiedOAuthToken user) {
        claims.put("travels", "header " + MtlsOnlyHop.USER_HEADER + " over SPIFFE mTLS");
        claims.put("header", MtlsOnlyHop.USER_HEADER + ": " + kept);
        claims.put("signed", false);
    }

    @Override
    protected Outgoing outgoing(String kept) {
        return hop.forward(kept, Role.M_TIER);
    }
}
