package io.spiffeidt.core.decode;

import io.spiffeidt.core.Mode;
import java.util.List;
import java.util.Map;

/**
 * A document decoded for display (not verified).
 *
 * <p>Thread safety: immutable.
 *
 * @param mode its format
 * @param encodedBytes the size of the encoded document in bytes (without ID-Mode's side-car
 *     artifacts)
 * @param header the JOSE header (DVID), or empty
 * @param layers every layer, root first
 * @param proofAttached DVID: whether a zero-knowledge proof ({@code zkp} claim) travels in the
 *     document; {@code false} in the other formats
 * @param proofRounds the rounds of the attached proof, or 0
 * @param hopsAnonymous Anon-Mode: whether every layer after the root names no workload; {@code
 *     false} in the other formats
 * @param bundle LSVID: the trust bundle token the document carries (role {@code bundle}: its issuer,
 *     subject and signature size), or {@code null}
 */
public record DecodedDocument(
        Mode mode,
        int encodedBytes,
        Map<String, Object> header,
        List<DecodedLayer> layers,
        boolean proofAttached,
        int proofRounds,
        boolean hopsAnonymous,
        DecodedLayer bundle) {

    /** Copies the collections. */
    public DecodedDocument {
        header = header == null
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(header));
        layers = List.copyOf(layers);
    }

    /** The number of layers. */
    public int depth() {
        return layers.size();
    }
}
