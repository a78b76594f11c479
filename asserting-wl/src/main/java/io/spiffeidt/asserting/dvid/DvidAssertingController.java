package io.spiffeidt.asserting.dvid;

import io.spiffeidt.asserting.api.RootAssertingController;
import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.Dvid;
import io.spiffeidt.core.dvid.DvidKeys;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.dvid.DvidIssuer;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import jakarta.validation.Valid;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** DVID endpoints of the asserting workload (docs/formats/dvid.md "Endpoints"). */
@RestController
@RequestMapping("/dvid")
public class DvidAssertingController extends RootAssertingController<Dvid> {

    private final DvidIssuer issuer;
    private final DvidVerifier verifier;
    private final String jwks;

    public DvidAssertingController(
            DvidHop hop,
            DvidMinter minter,
            DvidVerifier verifier,
            @Qualifier("dvidProofs") UserProofs.Kept proofs,
            DvidSigningKey key) {
        super(Mode.DVID, hop.minting(), proofs);
        this.issuer = hop.minting().orElseThrow();
        this.verifier = verifier;
        this.jwks = DvidKeys.jwks(java.util.Map.of(minter.keyId(), key.publicKey()));
    }

    /** The DVID verification keys, public parameters only. */
    @GetMapping(value = "/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    @AllowedCallers({Role.SUBJECT_WL, Role.M_TIER, Role.TARGET_WL})
    public String keys() {
        return jwks;
    }

    /**
     * Remote verification: the same verifier as local, for the caller as audience; with {@code
     * "introspect": true} the answer also carries what {@link #introspect} would answer, from the same
     * verification.
     */
    @PostMapping("/validate")
    @AllowedCallers({Role.M_TIER, Role.TARGET_WL})
    public ValidateResponse validate(@Valid @RequestBody ValidateRequest request, Caller caller) {
        if (request.proofDigest() != null && !request.wantsIntrospection()) {
            throw new AssertionException(ErrorCode.MALFORMED, "proofDigest without \"introspect\": true");
        }
        VerifiedDvid dvid = issuer.validate(Received.of(request.token()), caller);
        IntrospectionAnswer introspection =
                request.wantsIntrospection() ? introspection(dvid, request.proofDigest()) : null;
        return new ValidateResponse(dvid.result(), dvid.subject().toString(), dvid.jti(), introspection);
    }

    /** The proof record of a live DVID this workload minted; 404 when unknown or expired. */
    @PostMapping("/introspect")
    @AllowedCallers({Role.M_TIER, Role.TARGET_WL})
    public IntrospectionAnswer introspect(@Valid @RequestBody IntrospectRequest request, Caller caller) {
        return introspection(verifier.verify(request.token(), caller.id()), request.proofDigest());
    }

    private IntrospectionAnswer introspection(VerifiedDvid dvid, String proofDigest) {
        return proofs.answer(dvid.jti(), proofDigest);
    }
}
