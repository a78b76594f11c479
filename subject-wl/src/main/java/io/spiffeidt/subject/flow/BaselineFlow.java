package io.spiffeidt.subject.flow;

import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The part the baselines without a document share at the subject workload (mtls-only,
 * bearer-forward): there is no call to the asserting workload; "mint" verifies the user's access
 * token (as every request here does) and keeps what travels for that user until the token expires,
 * and the answer says what would travel, never a token; every use sends it to the middle tier over
 * mTLS. A baseline's flow says what it keeps ({@link #kept}), how the page describes it ({@link
 * #describe}) and what carries it ({@link #outgoing}).
 */
public abstract class BaselineFlow extends HopFlow {

    private final OAuthTokenVerifier oauth;

    protected BaselineFlow(Mode mode, DownstreamClients clients, OAuthTokenVerifier oauth) {
        super(mode, clients);
        this.oauth = oauth;
    }

    @Override
    public final MintedDocument mint(String accessToken) {
        return mint(accessToken, oauth.verify(mode(), accessToken));
    }

    @Override
    public final MintedDocument mint(String accessToken, VerifiedOAuthToken user) {
        String kept = kept(accessToken, user);
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("dpa", user.issuer());
        claims.put("dpr", user.subject());
        describe(claims, kept, user);
        return MintedDocument.withoutDocument(new KeptDocument(kept, null, user.expiresAt()), claims);
    }

    @Override
    public final AccountResponse use(
            KeptDocument document, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        return callMiddleTier(operation, outgoing(document.token()), amount, idempotencyKey);
    }

    /** What is kept for the user of the verified {@code accessToken}: what travels, never shown. */
    protected abstract String kept(String accessToken, VerifiedOAuthToken user);

    /** Adds to {@code claims} (after {@code dpa} and {@code dpr}) what the page says would travel. */
    protected abstract void describe(Map<String, Object> claims, String kept, VerifiedOAuthToken user);

    /** What carries {@code kept} to the middle tier. */
    protected abstract Outgoing outgoing(String kept);
}
