package io.spiffeidt.asserting.dvid;

import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.ZkpTiming;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.Dvid;
import io.spiffeidt.core.dvid.DvidKeys;
import io.spiffeidt.core.dvid.DvidMintRequest;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.EmbeddedZkp;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.MintResponse;
import io.spiffeidt.support.wire.OAuthSummary;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import jakarta.validation.Valid;
import java.security.Provider;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** DVID endpoints of the asserting workload (docs/formats/dvid.md "Endpoints"). */
@RestController
@RequestMapping("/dvid")
public class DvidAssertingController {

    private static final Logger log = LoggerFactory.getLogger(DvidAssertingController.class);
    private static final Mode MODE = Mode.DVID;

    private final OAuthTokenVerifier oauthVerifier;
    private final DvidMinter minter;
    private final DvidVerifier verifier;
    private final IntrospectionStore<DvidIntrospectionEntry> store;
    private final OperationMetrics metrics;
    private final DvidAssertingProperties settings;
    private final String jwks;
    private final SecureRandom random;
    private final Provider rsaProvider;

    public DvidAssertingController(
            OAuthTokenVerifier oauthVerifier,
            DvidMinter minter,
            DvidVerifier verifier,
            IntrospectionStore<DvidIntrospectionEntry> store,
            OperationMetrics metrics,
            DvidAssertingProperties properties,
            DvidSigningKey key,
            SignatureProvider crypto) {
        this.random = crypto.secureRandom();
        this.rsaProvider = crypto.rsaProvider();
        this.oauthVerifier = oauthVerifier;
        this.minter = minter;
        this.verifier = verifier;
        this.store = store;
        this.metrics = metrics;
        this.settings = properties;
        this.jwks = DvidKeys.jwks(java.util.Map.of(minter.keyId(), key.publicKey()));
    }

    /** Verifies the user's OAuth token and mints a DVID whose {@code sub} is the mTLS caller. */
    @PostMapping("/mint")
    @AllowedCallers(Role.SUBJECT_WL)
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        String accessToken = request.accessToken();
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, accessToken);
        OAuthProof proof = null;
        if (settings.zkp() == ZkpTiming.AT_MINT) {
            proof = metrics.time(MODE, Operation.ZKP_GENERATION, () -> prove(accessToken, oauth));
        }
        DvidMintRequest mintRequest =
                DvidMintRequest.of(caller.id(), oauth.issuer(), oauth.subject(), oauth.expiresAt());
        if (settings.embedZkp() && proof != null) {
            mintRequest = mintRequest.withZkp(new EmbeddedZkp(proof.msg(), proof.zkp()));
        }
        DvidMintRequest finalRequest = mintRequest;
        Dvid dvid = metrics.time(MODE, Operation.MINT, () -> minter.mint(finalRequest));
        String pending = settings.zkp() == ZkpTiming.LAZY ? accessToken : null;
        store.put(dvid.jti(), new DvidIntrospectionEntry(proof, pending), dvid.expiresAt());
        metrics.recordDocumentSize(MODE, 1, dvid.token().length());
        log.debug("minted DVID for {} (caller {})", oauth.subject(), caller.id());
        return new MintResponse(
                dvid.token(), null, new OAuthSummary(oauth.issuer(), oauth.subject(), oauth.expiresAt()));
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
        VerifiedDvid dvid = metrics.time(MODE, Operation.VALIDATE, () -> verifier.verify(request.token(), caller.id()));
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
        DvidIntrospectionEntry entry = store.get(dvid.jti())
                .orElseThrow(() -> new AssertionException(ErrorCode.NOT_FOUND, "no introspection record"));
        if (entry.introspection() != null) {
            return IntrospectionAnswer.of(entry.introspection(), proofDigest);
        }
        if (entry.pendingOAuthToken() == null) {
            throw new AssertionException(ErrorCode.NOT_FOUND, "no proof kept (zkp: off)");
        }
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, entry.pendingOAuthToken());
        OAuthProof proof = metrics.time(MODE, Operation.ZKP_GENERATION, () -> prove(entry.pendingOAuthToken(), oauth));
        store.replace(dvid.jti(), new DvidIntrospectionEntry(proof, null));
        return IntrospectionAnswer.of(proof, proofDigest);
    }

    private OAuthProof prove(String accessToken, VerifiedOAuthToken oauth) {
        return OAuthProof.create(accessToken, oauth.idpKey(), oauth.kid(), settings.zkpRounds(), random, rsaProvider);
    }
}
