package io.spiffeidt.asserting.wimse;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.wimse.Wit;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.core.wimse.WitKeys;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wimse.WimseHop;
import io.spiffeidt.support.wimse.WitWire;
import java.security.PublicKey;
import java.text.ParseException;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The asserting workload as the WIT issuer (docs/formats/wimse.md "Who issues WITs"): {@code POST
 * /wimse/wit} answers a WIT whose {@code sub} is the SPIFFE ID of the mTLS peer, never a request
 * parameter (the X.509-SVID is the attestation), and whose {@code cnf} is the public key the peer
 * sent; {@code GET /wimse/keys} is the issuer's JWKS, which every tier verifies WITs with. The user
 * part of the mode, the Txn-Token, is minted by the Txn-Token Service ({@code /txn-token/token}).
 */
@RestController
@RequestMapping("/wimse")
public class WimseAssertingController {

    private static final Logger log = LoggerFactory.getLogger(WimseAssertingController.class);

    private final WimseHop hop;
    private final WitIssuer issuer;
    private final String jwks;

    public WimseAssertingController(WimseHop hop, WitIssuer issuer, WitIssuerKey key) {
        this.hop = hop;
        this.issuer = issuer;
        this.jwks = WitKeys.jwks(key.publicKey());
    }

    /**
     * A WIT for the caller's key: an EC P-256 public JWK, no private member (a workload that sends its
     * private key has lost it; {@code MALFORMED}), another key type {@code UNSUPPORTED}.
     */
    @PostMapping(value = "/wit", consumes = MediaType.APPLICATION_JSON_VALUE)
    @AllowedCallers({Role.SUBJECT_WL, Role.M_TIER, Role.TARGET_WL})
    public ResponseEntity<WitWire.Response> wit(@RequestBody WitWire.Request request, Caller caller) {
        Wit wit = hop.issue(issuer, caller.id(), publicKey(request.jwk()));
        log.debug("WIT for {} until {}", caller.id(), wit.expiresAt());
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(new WitWire.Response(wit.token()));
    }

    /** The issuer's verification key, public parameters only. */
    @GetMapping(value = "/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    @AllowedCallers({Role.SUBJECT_WL, Role.M_TIER, Role.TARGET_WL})
    public String keys() {
        return jwks;
    }

    static PublicKey publicKey(Map<String, Object> jwk) {
        if (jwk == null || jwk.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "no jwk");
        }
        JWK parsed;
        try {
            parsed = JWK.parse(jwk);
        } catch (ParseException | RuntimeException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "jwk is not a JSON Web Key");
        }
        if (parsed.isPrivate()) {
            throw new AssertionException(ErrorCode.MALFORMED, "jwk holds a private key");
        }
        if (!(parsed instanceof ECKey ec) || !Curve.P_256.equals(ec.getCurve())) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "jwk is not an EC P-256 key");
        }
        try {
            return ec.toECPublicKey();
        } catch (Exception e) {
            throw new AssertionException(ErrorCode.MALFORMED, "jwk is not a point of P-256");
        }
    }
}
