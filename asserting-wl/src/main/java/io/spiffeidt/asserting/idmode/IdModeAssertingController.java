package io.spiffeidt.asserting.idmode;

import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.ZkpTiming;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeToken;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.MintResponse;
import io.spiffeidt.support.wire.OAuthSummary;
import jakarta.validation.Valid;
import java.security.Provider;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
    private static final Mode MODE = Mode.ID_MODE;

    private final OAuthTokenVerifier oauthVerifier;
    private final IdModeHop hop;
    private final IntrospectionStore<IdModeIntrospectionEntry> store;
    private final OperationMetrics metrics;
    private final IdModeAssertingProperties settings;
    private final SecureRandom random;
    private final Provider rsaProvider;

    public IdModeAssertingController(
            OAuthTokenVerifier oauthVerifier,
            IdModeHop hop,
            IntrospectionStore<IdModeIntrospectionEntry> store,
            OperationMetrics metrics,
            IdModeAssertingProperties settings,
            SignatureProvider crypto) {
        this.random = crypto.secureRandom();
        this.rsaProvider = crypto.rsaProvider();
        this.oauthVerifier = oauthVerifier;
        this.hop = hop;
        this.store = store;
        this.metrics = metrics;
        this.settings = settings;
    }

    /**
     * Verifies the user's OAuth token and mints the root layer {@code {aud: caller, dpa: iss, dpr:
     * sub, exp, iat, iss: self}} with the artifacts holding this workload's chain.
     */
    @PostMapping("/ecdsa-assertion")
    @AllowedCallers(Role.SUBJECT_WL)
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        String accessToken = request.accessToken();
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, accessToken);
        OAuthProof proof = null;
        if (settings.zkp() == ZkpTiming.AT_MINT) {
            proof = metrics.time(MODE, Operation.ZKP_GENERATION, () -> prove(accessToken, oauth));
        }
        IdModePresentation root = metrics.time(
                MODE,
                Operation.MINT,
                () -> hop.mintRoot(
                        caller.id(), oauth.issuer(), oauth.subject(), oauth.expiresAt(), settings.lifetime()));
        IdModeToken parsed = hop.parse(root.token());
        String pending = settings.zkp() == ZkpTiming.LAZY ? accessToken : null;
        // keyed by what the holder cannot rewrite: an ECDSA root has two valid texts (s and n - s)
        store.put(
                parsed.rootId(),
                new IdModeIntrospectionEntry(proof, pending),
                parsed.claims(0).expiresAt());
        metrics.recordDocumentSize(MODE, 1, root.size().totalBytes());
        log.debug("minted an ID-Mode root for {} (caller {})", oauth.subject(), caller.id());
        return new MintResponse(
                root.token(),
                root.artifacts().toJson(),
                new OAuthSummary(oauth.issuer(), oauth.subject(), oauth.expiresAt()));
    }

    /**
     * The proof record of a live root this workload minted, given the root {@code P(0).S(0)} or any
     * token built on it; 404 when unknown, expired or kept without a proof ({@code zkp: off}).
     *
     * <p>A request that offers the digest of exactly the kept proof is answered {@code
     * {"unchanged":true}} instead of the proof (docs/operations.md "Verified proofs are remembered").
     */
    @PostMapping("/introspect")
    @AllowedCallers({Role.M_TIER, Role.TARGET_WL})
    public IntrospectionAnswer introspect(@Valid @RequestBody IntrospectRequest request) {
        String key = hop.parse(request.token()).rootId();
        IdModeIntrospectionEntry entry = store.get(key)
                .orElseThrow(() -> new AssertionException(ErrorCode.NOT_FOUND, "no introspection record"));
        if (entry.introspection() != null) {
            return IntrospectionAnswer.of(entry.introspection(), request.proofDigest());
        }
        if (entry.pendingOAuthToken() == null) {
            throw new AssertionException(ErrorCode.NOT_FOUND, "no proof kept (zkp: off)");
        }
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, entry.pendingOAuthToken());
        OAuthProof proof = metrics.time(MODE, Operation.ZKP_GENERATION, () -> prove(entry.pendingOAuthToken(), oauth));
        store.replace(key, new IdModeIntrospectionEntry(proof, null));
        return IntrospectionAnswer.of(proof, request.proofDigest());
    }

    private OAuthProof prove(String accessToken, VerifiedOAuthToken oauth) {
        return OAuthProof.create(accessToken, oauth.idpKey(), oauth.kid(), settings.zkpRounds(), random, rsaProvider);
    }
}
