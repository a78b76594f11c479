package io.spiffeidt.mtier.bearerforward;

import io.spiffeidt.mtier.api.MiddleTierController;
import io.spiffeidt.support.bearerforward.BearerForwardHop;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * bearer-forward at the middle tier (docs/formats/bearer-forward.md): verifies the user's access
 * token against the IdP's JWKS (issuer allow-list, the domain's audience, expiry) and forwards it
 * unchanged to the target as {@code Authorization: Bearer}.
 */
@RestController
@RequestMapping("/bearer-forward")
public class BearerForwardMiddleTierController extends MiddleTierController<VerifiedOAuthToken> {

    public BearerForwardMiddleTierController(DownstreamClients clients, BearerForwardHop hop) {
        super(clients, hop);
    }
}
