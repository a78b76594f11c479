package io.spiffeidt.core;

import java.util.List;
import java.util.Objects;

/**
 * What every verifier returns on success, the same shape for all four modes (docs/formats/common.md "The
 * verified result").
 *
 * <p>Thread safety: immutable.
 *
 * @param mode the document's mode
 * @param layers outermost first
 * @param delegation the user the document acts for
 * @param encodedSize the encoded document size in bytes
 * @param depth the number of layers
 */
public record VerifiedResult(Mode mode, List<LayerInfo> layers, Delegation delegation, int encodedSize, int depth) {

    /** Copies the layer list. */
    public VerifiedResult {
        Objects.requireNonNull(mode, "mode");
        layers = List.copyOf(layers);
        Objects.requireNonNull(delegation, "delegation");
    }

    /** The outermost layer. */
    public LayerInfo outermost() {
        return layers.get(0);
    }
}
