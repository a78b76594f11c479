package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.asserting.introspection.UserProofs.VerifiedUser;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeToken;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.MintResponse;
import jakarta.validation.Valid;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode endpoints of the asserting workload (docs/formats/id-mode.md "Endpoints"): the root layer, signed
 * with this workload's X.509-SVID key and addressed to the mTLS caller, and the introspection of a
 * root this workload minted.
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeAssertingController {

    private static final Logger log = LoggerFactory.getLogger(IdModeAssertingController.class);

    private final IdModeHop hop;
    private final UserProofs.Kept proofs;
    private final Duration lifetime;

    public IdModeAssertingController(
            IdModeHop hop, @Qualifier("idModeProofs") UserProofs.Kept proofs, IdModeAssertingProperties settings) {
        this.hop = hop;
        this.proofs = proofs;
        this.lifetime = settings.lifetime();
    }

    /**
     * Verifies the user's OAuth token and mints the root layer {@code {aud: caller, dpa: iss, dpr:
     * sub, exp, iat, iss: self}} with the artifacts holding this workload's chain.
     */
    @PostMapping("/ecdsa-assertion")
    @AllowedCallers(Role.SUBJECT_WL)
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        VerifiedUser user = proofs.verify(request.accessToken());
        IdModePresentation root = hop.mint(user.grantTo(caller), lifetime);
        IdModeToken parsed = hop.parse(root.token());
        // keyed by what the holder cannot rewrite: an ECDSA root has two valid texts (s and n - s)
        proofs.keep(parsed.rootId(), user, parsed.claims(0).expiresAt());
        log.debug("minted an ID-Mode root for {} (caller {})", user.oauth().subject(), caller.id());
        return new MintResponse(root.token(), root.artifacts().toJson(), user.summary());
    }

    /**
     * The proof record of a live root this workload minted, given the root {@code P(0).S(0)} or any
     * token built on it; 404 when unknown, expired or kept without a proof ({@code zkp: off}).
     */
    @PostMapping("/introspect")
    @AllowedCallers({Role.M_TIER, Role.TARGET_WL})
    public IntrospectionAnswer introspect(@Valid @RequestBody IntrospectRequest request) {
        return proofs.answer(hop.parse(request.token()).rootId(), request.proofDigest());
    }
}
