package io.spiffeidt.asserting.api;

import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.asserting.introspection.UserProofs.VerifiedUser;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.MintResponse;
import jakarta.validation.Valid;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * The asserting workload's mint of a root it keeps for introspection, the same in every mode that
 * has one (DVID, ID-Mode, Anon-Mode; docs/design.md "The hop contract"): verify the user's OAuth
 * token (and prove it, {@link UserProofs}), mint the mode's root for the mTLS caller ({@link
 * #mint(VerifiedUser, Caller)}, the hop's {@code mint}), keep the introspection record until the root
 * expires, answer the root. Each mode's controller ({@code @RequestMapping("/<mode>")}) extends this
 * class with its hop's step and its introspection endpoint.
 *
 * <p>The mint endpoint is {@code POST /<mode>/mint} in every mode ({@link #MINT}); a mode whose
 * original code's clients used another path maps it too, as an alias.
 */
public abstract class RootAssertingController {

    /** The mint endpoint's path in every mode, below the mode's prefix. */
    public static final String MINT = "/mint";

    private static final Logger log = LoggerFactory.getLogger(RootAssertingController.class);

    private final Mode mode;

    /** The mode's users and introspection records. */
    protected final UserProofs.Kept proofs;

    protected RootAssertingController(Mode mode, UserProofs.Kept proofs) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.proofs = Objects.requireNonNull(proofs, "proofs");
    }

    /**
     * Verifies the user's OAuth token, mints the mode's root addressed to the mTLS caller and keeps
     * its introspection record until it expires.
     */
    @PostMapping(MINT)
    @AllowedCallers(Role.SUBJECT_WL)
    public MintResponse mint(@Valid @RequestBody AccessTokenRequest request, Caller caller) {
        VerifiedUser user = proofs.verify(request.accessToken());
        Root root = mint(user, caller);
        proofs.keep(root.key(), user, root.expiresAt());
        log.debug(
                "minted a {} root for {} (caller {})",
                mode.pathSegment(),
                user.oauth().subject(),
                caller.id());
        return new MintResponse(root.token(), root.artifacts(), user.summary());
    }

    /** The mode's step: the root for {@code user}, addressed to {@code caller}. */
    protected abstract Root mint(VerifiedUser user, Caller caller);

    /**
     * A minted root and its introspection record's key.
     *
     * @param token the root
     * @param artifacts its artifacts in JSON form (ID-Mode), or {@code null}
     * @param key what its introspection record is kept under: what a holder cannot rewrite
     * @param expiresAt when the root and its record expire
     */
    public record Root(String token, String artifacts, String key, Instant expiresAt) {}
}
