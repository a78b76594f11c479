package io.spiffeidt.support.bearerforward;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.AbstractHop;
import io.spiffeidt.support.hop.Forwarding;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.InvalidAccessTokenException;
import io.spiffeidt.support.oauth.MissingAccessTokenException;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.DocumentRequest;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;

/**
 * The {@code bearer-forward} baseline (docs/formats/bearer-forward.md): the user's OAuth access
 * token travels unchanged at every hop as {@code Authorization: Bearer} (RFC 6750 section 2.1) over
 * the SPIFFE mTLS connection, and every tier verifies it with the same {@link OAuthTokenVerifier}
 * (the IdP's JWKS, the audience configured for the whole trust domain). Every refusal of the token
 * is an {@link InvalidAccessTokenException}: 401 with {@code WWW-Authenticate: Bearer
 * error="invalid_token"}. Anyone who holds the token (a leak at any tier) can use it at every tier
 * until it expires: that is the baseline's point.
 *
 * <p>Thread safety: thread safe.
 */
public class BearerForwardHop extends AbstractHop<VerifiedOAuthToken, Void> {

    /** RFC 6750 section 2.1: {@code Bearer} and one {@code b64token}. */
    private static final Pattern CREDENTIALS = Pattern.compile("(?i:bearer) +[A-Za-z0-9\\-._~+/]+=*");

    private final OAuthTokenVerifier oauth;

    /**
     * A hop whose checks are the access token verifier's (timed as {@code oauth_verify}, not as
     * {@code validate}).
     *
     * @param oauth the access token verifier of this workload (its issuers and their audience)
     */
    public BearerForwardHop(HopParts parts, OAuthTokenVerifier oauth) {
        super(Mode.BEARER_FORWARD, parts, Forwarding.REWRITES, false);
        this.oauth = Objects.requireNonNull(oauth, "oauth");
    }

    /**
     * The subject workload's step for the access token it keeps: the token as the user presented it,
     * for {@code next}, its size recorded.
     */
    public Outgoing forward(String accessToken, Role next) {
        return recorded(headerFor(accessToken));
    }

    /**
     * The token of the {@code Authorization} header; a body token is refused (this mode carries no
     * document).
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} with a token in the body
     * @throws MissingAccessTokenException without an {@code Authorization: Bearer} header (none, or
     *     another scheme only)
     * @throws InvalidAccessTokenException {@link ErrorCode#MALFORMED} with several {@code
     *     Authorization} headers, or a bearer value that is no {@code b64token}
     */
    @Override
    public Received receive(DocumentRequest body, HttpHeaders headers) {
        if (body.token() != null) {
            throw new AssertionException(ErrorCode.MALFORMED, "bearer-forward carries no document in the body");
        }
        List<String> raw = headers.get(HttpHeaders.AUTHORIZATION);
        if (raw == null || raw.stream().noneMatch(BearerForwardHop::bearerScheme)) {
            throw new MissingAccessTokenException();
        }
        if (raw.size() != 1 || !CREDENTIALS.matcher(raw.get(0)).matches()) {
            throw new InvalidAccessTokenException(
                    ErrorCode.MALFORMED, "exactly one Authorization: Bearer header required", null);
        }
        return Received.of(raw.get(0).substring(raw.get(0).indexOf(' ')).trim());
    }

    private static boolean bearerScheme(String credentials) {
        return credentials.regionMatches(true, 0, "Bearer", 0, 6)
                && (credentials.length() == 6 || credentials.charAt(6) == ' ');
    }

    /**
     * Verifies the access token in full ({@link OAuthTokenVerifier#verify}, timed as {@code
     * oauth_verify}): signature under the IdP's JWKS, issuer allow-list, the domain's audience,
     * expiry. The delegation is the token's user, asserted by its issuer; the one layer is the mTLS
     * hop (issuer: the caller, audience: this workload, expiry: the token's).
     *
     * @throws InvalidAccessTokenException the verifier's code
     * @throws AssertionException UPSTREAM_UNAVAILABLE when the IdP's keys cannot be had
     */
    @Override
    protected Verified<VerifiedOAuthToken> check(Received received, Caller caller, Void none) {
        VerifiedOAuthToken token = oauth.verify(Mode.BEARER_FORWARD, received.token());
        Delegation delegation = new Delegation(token.issuer(), token.subject(), token.issuer());
        VerifiedResult result = new VerifiedResult(
                Mode.BEARER_FORWARD,
                List.of(new LayerInfo(caller.id().toString(), self().toString(), null, token.expiresAt())),
                delegation,
                received.token().length(),
                1);
        return new Verified<>(token, result, received);
    }

    /** The token as received, unchanged, for {@code next}. */
    @Override
    protected Outgoing onward(Verified<VerifiedOAuthToken> verified, Role next) {
        return headerFor(verified.received().token());
    }

    private static Outgoing headerFor(String accessToken) {
        return Outgoing.inHeader(accessToken, HttpHeaders.AUTHORIZATION, "Bearer " + accessToken);
    }
}
