package io.spiffeidt.asserting.api;

import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.asserting.introspection.UserProofs.VerifiedUser;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Hop;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Minting;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.MintResponse;
import jakarta.validation.Valid;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * The asserting workload's mint of a root it keeps for introspection, the same in every mode that
 * has one (DVID, ID-Mode, Anon-Mode; docs/design.md "The hop contract"): verify the user's OAuth
 * token (and prove it, {@link UserProofs}), mint the mode's root for the mTLS caller (the hop's
 * {@link Minting}), keep the introspection record until the root expires, answer the root. Each
 * mode's controller ({@code @RequestMapping("/<mode>")}) extends this class with its introspection
 * endpoint.
 *
 * <p>The mint endpoint is {@code POST /<mode>/mint} in every mode ({@link #MINT}); a mode whose
 * original code's clients used another path maps it too, as an alias.
 *
 * @param <M> the mode's minted document
 */
public abstract class RootAssertingController<M> {

    /** The mint endpoint's path in every mode, below the mode's prefix. */
    public static final String MINT = "/mint";

    private static final Logger log = LoggerFactory.getLogger(RootAssertingController.class);

    private final Mode mode;
    private final Minting<M> minting;

    /** The mode's users and introspection records. */
    protected final UserProofs.Kept proofs;

    /**
     * @param minting the {@link Hop#minting()} of the mode's hop
     * @throws IllegalStateException when the hop mints nothing (it was not given what it mints with)
     */
    protected RootAssertingController(Mode mode, Optional<? extends Minting<M>> minting, UserProofs.Kept proofs) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.minting = minting.orElseThrow(
                () -> new IllegalStateException("the " + mode.pathSegment() + " hop of this workload mints nothing"));
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
        Minted<M> root = minting.mint(user.grantTo(caller));
        proofs.keep(keyOf(root), user, root.expiresAt());
        log.debug(
                "minted a {} root for {} (caller {})",
                mode.pathSegment(),
                user.oauth().subject(),
                caller.id());
        return new MintResponse(root.token(), root.artifacts(), user.summary());
    }

    /**
     * What the introspection record of {@code root} is kept under: what a holder cannot rewrite. By
     * default the root identifier the hop gives ({@link Minted#rootId()}).
     */
    protected String keyOf(Minted<M> root) {
        return root.rootId();
    }
}
