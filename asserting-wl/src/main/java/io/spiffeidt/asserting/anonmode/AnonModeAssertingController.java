package io.spiffeidt.asserting.anonmode;

import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.ZkpTiming;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.MintResponse;
import io.spiffeidt.support.wire.OAuthSummary;
import jakarta.validation.Valid;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Anon-Mode endpoints of the asserting workload (docs/formats/anon-mode.md "Minting", "Endpoints"): the
 * root, signed with a fresh random key and addressed to the mTLS caller, and the introspection of a
 * root this workload minted. The root key is random, so the introspection record is the only link
 * between a root and this workload: a verifier asks for it by the root {@code P(0).R(0)}.
 */
@RestController
@RequestMapping("/anon-mode")
public class AnonModeAssertingController {

    private static final Logger log = LoggerFactory.getLogger(AnonModeAssertingController.class);
    private static final Mode MODE = Mode.ANON_MODE;

    /** base64url length of an encoded point (the root's {@code R(0)} segment). */
    private static final int POINT_SEGMENT_CHARS = 43;

    private final OAuthTokenVerifier oauthVerifier;
    private final AnonModeHop hop;
    private final IntrospectionStore<AnonModeIntrospectionEntry> store;
    private final OperationMetrics metrics;
    private final AnonModeAssertingProperties settings;
    private final SecureRandom random;
    private final Provider rsaProvider;

    public AnonModeAssertingController(
            OAuthTokenVerifier oauthVerifier,
            AnonModeHop hop,
            IntrospectionStore<AnonModeIntrospectionEntry> store,
            OperationMetrics metrics,
            AnonModeAssertingProperties settings,
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
     * Verifies the user's OAuth token and mints a root {@code {aud: caller, dpa: iss, dpr: sub, exp,
     * iat, iss: fresh key}}; the root identifier is recorded for introspection until the root
     * expires.
     */
    @PostMapping("/schnorr-assertion")
    @AllowedCallers(Role.SUBJECT_WL)
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        String accessToken = request.accessToken();
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, accessToken);
        OAuthProof proof = null;
        if (settings.zkp() == ZkpTiming.AT_MINT) {
            proof = metrics.time(MODE, Operation.ZKP_GENERATION, () -> prove(accessToken, oauth));
        }
        MintedAnonMode root = metrics.time(
                MODE,
                Operation.MINT,
                () -> hop.mintRoot(
                        caller.id(), oauth.issuer(), oauth.subject(), oauth.expiresAt(), settings.lifetime()));
        String pending = proof == null ? accessToken : null;
        store.put(storeKey(root.rootIdentifier()), new AnonModeIntrospectionEntry(proof, pending), root.expiresAt());
        metrics.recordDocumentSize(MODE, 1, root.token().length());
        log.debug("minted an Anon-Mode root for {} (caller {})", oauth.subject(), caller.id());
        return new MintResponse(
                root.token(), null, new OAuthSummary(oauth.issuer(), oauth.subject(), oauth.expiresAt()));
    }

    /**
     * The proof record of a live root this workload minted, given its root identifier {@code
     * P(0).R(0)}; 404 ({@code NOT_FOUND}) when unknown or expired.
     *
     * <p>A request that offers the digest of exactly the kept proof is answered {@code
     * {"unchanged":true}} instead of the proof (docs/operations.md "Verified proofs are remembered").
     */
    @PostMapping("/introspect")
    @AllowedCallers({Role.M_TIER, Role.TARGET_WL})
    public IntrospectionAnswer introspect(@Valid @RequestBody AnonModeIntrospectRequest request) {
        String root = request.root();
        checkRootShape(root);
        String key = storeKey(root);
        AnonModeIntrospectionEntry entry = store.get(key)
                .orElseThrow(() -> new AssertionException(ErrorCode.NOT_FOUND, "no introspection record"));
        if (entry.introspection() != null) {
            return IntrospectionAnswer.of(entry.introspection(), request.proofDigest());
        }
        VerifiedOAuthToken oauth = oauthVerifier.verify(MODE, entry.pendingOAuthToken());
        OAuthProof proof = metrics.time(MODE, Operation.ZKP_GENERATION, () -> prove(entry.pendingOAuthToken(), oauth));
        store.replace(key, new AnonModeIntrospectionEntry(proof, null));
        return IntrospectionAnswer.of(proof, request.proofDigest());
    }

    /** {@code P(0) . R(0)}: one payload segment and one 32-byte point segment, nothing more. */
    private static void checkRootShape(String root) {
        int dot = root.indexOf('.');
        if (dot <= 0 || root.indexOf('.', dot + 1) >= 0 || root.length() - dot - 1 != POINT_SEGMENT_CHARS) {
            throw new AssertionException(ErrorCode.MALFORMED, "not an Anon-Mode root P(0).R(0)");
        }
    }

    private OAuthProof prove(String accessToken, VerifiedOAuthToken oauth) {
        return OAuthProof.create(accessToken, oauth.idpKey(), oauth.kid(), settings.zkpRounds(), random, rsaProvider);
    }

    /** The root text's SHA-256 (base64url): the root itself is never a key of the store. */
    private static String storeKey(String root) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(root.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
