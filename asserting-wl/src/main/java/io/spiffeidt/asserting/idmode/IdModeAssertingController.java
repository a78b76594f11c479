package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.api.RootAssertingController;
import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.MintResponse;
import jakarta.validation.Valid;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode endpoints of the asserting workload (docs/formats/id-mode.md "Endpoints"): the root layer, signed
 * with this workload's X.509-SVID key and addressed to the mTLS caller, and the introspection of a
 * root this workload minted. The mint endpoint is {@code /id-mode/mint}; {@code
 * /id-mode/ecdsa-assertion}, the original code's path, is an alias of it.
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeAssertingController extends RootAssertingController<IdModePresentation> {

    /** The original code's path of the mint endpoint, kept as an alias of {@link #MINT}. */
    public static final String ORIGINAL_MINT = "/ecdsa-assertion";

    private final IdModeHop hop;

    public IdModeAssertingController(IdModeHop hop, @Qualifier("idModeProofs") UserProofs.Kept proofs) {
        super(Mode.ID_MODE, hop.minting(), proofs);
        this.hop = hop;
    }

    /** {@link RootAssertingController#mint}, also at the original path {@value #ORIGINAL_MINT}. */
    @Override
    @PostMapping({MINT, ORIGINAL_MINT})
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        return super.mint(request, caller);
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
