package io.spiffeidt.targetwl.bearerforward;

import io.spiffeidt.support.bearerforward.BearerForwardHop;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.targetwl.account.AccountOperations;
import io.spiffeidt.targetwl.api.TargetController;
import java.util.List;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * bearer-forward at the target (docs/formats/bearer-forward.md): verifies the user's access token
 * itself (the IdP's JWKS, issuer allow-list, the domain's audience, expiry); the account is the
 * token's {@code iss}/{@code sub}. The token says nothing of the workloads it passed through.
 */
@RestController
@RequestMapping("/bearer-forward")
public class BearerForwardTargetController extends TargetController<VerifiedOAuthToken> {

    public BearerForwardTargetController(AccountOperations accounts, BearerForwardHop hop) {
        super(accounts, hop);
    }

    /** All the target knows of the path: its mTLS caller, then itself. */
    @Override
    protected List<String> path(Verified<VerifiedOAuthToken> verified) {
        return List.of(verified.result().outermost().issuer(), hop.self().toString());
    }
}
