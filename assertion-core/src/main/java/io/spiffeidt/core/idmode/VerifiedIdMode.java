package io.spiffeidt.core.idmode;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerifiedResult;
import java.util.List;
import java.util.Objects;

/**
 * A verified ID-Mode token (docs/formats/id-mode.md "Verification"): the common result, the verified path
 * and what was verified, so that a hop can extend exactly that ({@link IdModeExtender#extend(
 * VerifiedIdMode, SpiffeId)}).
 *
 * <p>Thread safety: immutable.
 *
 * @param result the common verified result: layers outermost first, delegation, sizes
 * @param path the issuers in call order: the asserting workload (root) first, the presenter of the
 *     outermost layer last
 * @param audience the outermost layer's audience: the verifier
 * @param presentation the verified token and artifacts
 * @param token the verified token as parsed once by the verifier (its claims, root and prefixes),
 *     so that no later step of the request parses the text again
 */
public record VerifiedIdMode(
        VerifiedResult result,
        List<SpiffeId> path,
        SpiffeId audience,
        IdModePresentation presentation,
        IdModeToken token) {

    /** Copies the path. */
    public VerifiedIdMode {
        Objects.requireNonNull(result, "result");
        path = List.copyOf(path);
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(presentation, "presentation");
        Objects.requireNonNull(token, "token");
    }

    /** The root layer's claims ({@code dpa}, {@code dpr}, {@code iss}, {@code aud}, times) as received. */
    public IdModeClaims rootClaims() {
        return token.claims(0);
    }

    /** The number of layers. */
    public int depth() {
        return result.depth();
    }
}
