package io.spiffeidt.asserting.lsvid;

import io.spiffeidt.asserting.api.RootAssertingController;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Grant;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.LsvidExtendRequest;
import io.spiffeidt.support.wire.LsvidExtendResponse;
import io.spiffeidt.support.wire.OAuthSummary;
import jakarta.validation.Valid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * LSVID at the asserting workload (docs/formats/lsvid.md "Flows", mint): verifies the user's OAuth token and
 * the subject workload's LSVID (outermost issuer = the mTLS peer, by name and key; audience = this
 * workload; no delegation yet), then adds the delegation layer addressed to the peer ({@link
 * LsvidHop#mint}). Nothing is stored: the target verifies offline. The mint endpoint is {@code
 * /lsvid/mint}; {@code /lsvid/extendlsvid}, the original code's path, is an alias of it.
 */
@RestController
@RequestMapping("/lsvid")
public class LsvidAssertingController {

    private static final Logger log = LoggerFactory.getLogger(LsvidAssertingController.class);
    private static final Mode MODE = Mode.LSVID;

    private final OAuthTokenVerifier oauthVerifier;
    private final LsvidHop hop;

    public LsvidAssertingController(OAuthTokenVerifier oauthVerifier, LsvidHop hop) {
        this.oauthVerifier = oauthVerifier;
        this.hop = hop;
    }

    /** The original code's path of the mint endpoint, kept as an alias of {@code /lsvid/mint}. */
    public static final String ORIGINAL_MINT = "/extendlsvid";

    /** Verifies the user and the subject workload's document, and adds the delegation layer. */
    @PostMapping({RootAssertingController.MINT, ORIGINAL_MINT})
    @AllowedCallers(Role.SUBJECT_WL)
    public LsvidExtendResponse mint(@Valid @RequestBody LsvidExtendRequest request, Caller caller) {
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, request.accessToken());
        Minted<Lsvid> delegated = hop.mint(Received.of(request.lsvid()), caller, Grant.of(oauth, caller));
        log.debug("delegated LSVID for {} to {} (depth {})", oauth.subject(), caller.id(), delegated.depth());
        return new LsvidExtendResponse(
                delegated.token(), new OAuthSummary(oauth.issuer(), oauth.subject(), oauth.expiresAt()));
    }
}
