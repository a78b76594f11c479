package io.spiffeidt.asserting.anonmode;

import io.spiffeidt.asserting.api.RootAssertingController;
import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.anonmode.MintedAnonMode;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.MintResponse;
import jakarta.validation.Valid;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Anon-Mode endpoints of the asserting workload (docs/formats/anon-mode.md "Minting", "Endpoints"): the
 * root, signed with a fresh random key and addressed to the mTLS caller, and the introspection of a
 * root this workload minted. The root key is random, so the introspection record is the only link
 * between a root and this workload: a verifier asks for it by the root {@code P(0).R(0)}. The mint
 * endpoint is {@code /anon-mode/mint}; {@code /anon-mode/schnorr-assertion}, the original code's
 * path, is an alias of it.
 */
@RestController
@RequestMapping("/anon-mode")
public class AnonModeAssertingController extends RootAssertingController<MintedAnonMode> {

    /** The original code's path of the mint endpoint, kept as an alias of {@link #MINT}. */
    public static final String ORIGINAL_MINT = "/schnorr-assertion";

    /** base64url length of an encoded point (the root's {@code R(0)} segment). */
    private static final int POINT_SEGMENT_CHARS = 43;

    public AnonModeAssertingController(AnonModeHop hop, @Qualifier("anonModeProofs") UserProofs.Kept proofs) {
        super(Mode.ANON_MODE, hop.minting(), proofs);
    }

    /** {@link RootAssertingController#mint}, also at the original path {@value #ORIGINAL_MINT}. */
    @Override
    @PostMapping({MINT, ORIGINAL_MINT})
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        return super.mint(request, caller);
    }

    /** The digest of the root identifier {@code P(0).R(0)} ({@link #storeKey}). */
    @Override
    protected String keyOf(Minted<MintedAnonMode> root) {
        return storeKey(root.rootId());
    }

    /**
     * The proof record of a live root this workload minted, given its root identifier {@code
     * P(0).R(0)}; 404 ({@code NOT_FOUND}) when unknown or expired.
     */
    @PostMapping("/introspect")
    @AllowedCallers({Role.M_TIER, Role.TARGET_WL})
    public IntrospectionAnswer introspect(@Valid @RequestBody AnonModeIntrospectRequest request) {
        String root = request.root();
        checkRootShape(root);
        return proofs.answer(storeKey(root), request.proofDigest());
    }

    /** {@code P(0) . R(0)}: one payload segment and one 32-byte point segment, nothing more. */
    private static void checkRootShape(String root) {
        int dot = root.indexOf('.');
        if (dot <= 0 || root.indexOf('.', dot + 1) >= 0 || root.length() - dot - 1 != POINT_SEGMENT_CHARS) {
            throw new AssertionException(ErrorCode.MALFORMED, "not an Anon-Mode root P(0).R(0)");
        }
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
