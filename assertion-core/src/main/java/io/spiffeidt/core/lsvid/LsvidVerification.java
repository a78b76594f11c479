package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import java.util.List;
import java.util.Objects;

/**
 * A verified LSVID together with its decoded form, so the verifying workload can extend it
 * without decoding it again (docs/formats/lsvid.md "Flows").
 *
 * <p>Thread safety: immutable.
 *
 * @param document the decoded document
 * @param layers one entry per token, outermost first, the base last
 * @param delegation the delegation of the pinned asserting workload, or {@code null} when the
 *     document was verified with {@link LsvidVerifier.DelegationRule#ABSENT}
 * @param encodedSize the encoded size in bytes
 * @param depth the number of tokens, the base included
 */
public record LsvidVerification(
        Lsvid document, List<LayerInfo> layers, Delegation delegation, int encodedSize, int depth) {

    /** Copies the layers. */
    public LsvidVerification {
        Objects.requireNonNull(document, "document");
        layers = List.copyOf(layers);
    }

    /** The outermost layer. */
    public LayerInfo outermost() {
        return layers.get(0);
    }

    /**
     * The mode-independent result.
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} when there is no delegation
     */
    public VerifiedResult toResult() {
        if (delegation == null) {
            throw new AssertionException(ErrorCode.DELEGATION_INVALID, "document carries no delegation");
        }
        return new VerifiedResult(Mode.LSVID, layers, delegation, encodedSize, depth);
    }
}
