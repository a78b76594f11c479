package io.spiffeidt.asserting.txntoken;

import io.spiffeidt.asserting.api.RootAssertingController;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.caller.CallerNotAllowedException;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.support.txntoken.TxnTokenService;
import io.spiffeidt.support.wire.TxnTokenResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The asserting workload as the Txn-Token Service (docs/formats/txn-token.md "Endpoints"): the
 * draft's profile of RFC 8693 token exchange at {@code POST /txn-token/token} (the caller
 * authenticated by its SVID, draft §11.5; the subject workload exchanges an access token, the middle
 * tier a Txn-Token for its replacement, draft §13.15) and the service's JWKS at {@code GET
 * /txn-token/keys}. {@code POST /txn-token/mint} is the same endpoint under the name every mode's
 * mint endpoint has; {@code /txn-token/token} is the draft's name, which its clients use.
 */
@RestController
@RequestMapping("/txn-token")
public class TxnTokenAssertingController {

    private static final Logger log = LoggerFactory.getLogger(TxnTokenAssertingController.class);

    private final TxnTokenHop hop;
    private final TxnTokenService service;
    private final OAuthTokenVerifier oauth;
    private final String jwks;

    public TxnTokenAssertingController(
            TxnTokenHop hop, TxnTokenMinter minter, OAuthTokenVerifier oauth, TxnTokenServiceKey key) {
        this.hop = hop;
        this.service = hop.minting()
                .orElseThrow(() -> new IllegalStateException("the txn-token hop of this workload mints nothing"));
        this.oauth = oauth;
        this.jwks = TxnTokenKeys.jwks(Map.of(minter.keyId(), key.publicKey()));
    }

    /**
     * The Txn-Token Request (draft §11.1 to §11.4): every parameter once; the grant type, the
     * requested token type, {@code audience} = this trust domain and a scope within the one granted
     * are checked before the subject token is: an access token (the subject workload only) is
     * verified against the allow-listed IdPs, a Txn-Token (the middle tier only) against the
     * service's own key. The answer is never cached and carries no refresh token. Parameters come in
     * the body only (RFC 8693 section 2.1): a request with a query string is refused {@code
     * MALFORMED} before anything is read from it, so no client learns to put a subject token in a URL
     * (and so in access logs).
     */
    @PostMapping(
            value = {RootAssertingController.MINT, "/token"},
            consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    @AllowedCallers({Role.SUBJECT_WL, Role.M_TIER})
    public ResponseEntity<TxnTokenResponse> token(
            @RequestParam MultiValueMap<String, String> form, Caller caller, HttpServletRequest request) {
        if (request.getQueryString() != null) {
            throw new AssertionException(
                    ErrorCode.MALFORMED, "the Txn-Token request takes its parameters in the body only, not in the URL");
        }
        String grantType = single(form, "grant_type");
        if (!TxnTokenHop.GRANT_TYPE.equals(grantType)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "grant_type is not token exchange");
        }
        if (!TxnTokenResponse.TXN_TOKEN_TYPE.equals(single(form, "requested_token_type"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "requested_token_type is not the Txn-Token type");
        }
        if (!hop.settings().trustDomain().equals(single(form, "audience"))) {
            throw new AssertionException(ErrorCode.WRONG_AUDIENCE, "audience is not this trust domain");
        }
        String scope = single(form, "scope");
        String subjectToken = single(form, "subject_token");
        String subjectTokenType = single(form, "subject_token_type");
        requireWithin(scope, hop.scope());
        Minted<TxnToken> issued;
        if (TxnTokenHop.ACCESS_TOKEN_TYPE.equals(subjectTokenType)) {
            requireCaller(caller, Role.SUBJECT_WL, "exchange an access token");
            VerifiedOAuthToken user = oauth.verify(Mode.TXN_TOKEN, subjectToken);
            issued = service.mint(Grant.of(user, caller));
            log.debug("Txn-Token for {} to {}", user.subject(), caller.id());
        } else if (TxnTokenResponse.TXN_TOKEN_TYPE.equals(subjectTokenType)) {
            requireCaller(caller, Role.M_TIER, "replace a Txn-Token");
            issued = service.replace(Received.of(subjectToken), caller);
            log.debug("replacement Txn-Token of {} to {}", issued.document().subject(), caller.id());
        } else {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "subject_token_type not accepted");
        }
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(TxnTokenResponse.of(issued.token()));
    }

    /** The service's verification keys, public parameters only. */
    @GetMapping(value = "/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    @AllowedCallers({Role.SUBJECT_WL, Role.M_TIER, Role.TARGET_WL})
    public String keys() {
        return jwks;
    }

    /** A parameter present exactly once (RFC 6749 §3.2). */
    private static String single(MultiValueMap<String, String> form, String name) {
        List<String> values = form.get(name);
        if (values == null
                || values.size() != 1
                || values.get(0) == null
                || values.get(0).isBlank()) {
            throw new AssertionException(ErrorCode.MALFORMED, name + " must be present once");
        }
        return values.get(0);
    }

    private void requireCaller(Caller caller, Role role, String what) {
        if (!caller.id().equals(hop.idOf(role))) {
            throw new CallerNotAllowedException(caller.id() + " may not " + what + " at the Txn-Token Service");
        }
    }

    /** The requested scope never exceeds the one granted (draft §13.6). */
    private static void requireWithin(String requested, String granted) {
        Set<String> allowed = new HashSet<>(Arrays.asList(granted.trim().split(" +")));
        for (String s : requested.trim().split(" +")) {
            if (!allowed.contains(s)) {
                throw new AssertionException(ErrorCode.DELEGATION_INVALID, "scope exceeds the one granted");
            }
        }
    }
}
