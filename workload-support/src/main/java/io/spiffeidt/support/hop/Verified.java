package io.spiffeidt.support.hop;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.VerifiedResult;
import java.util.Objects;

/**
 * A document that passed a {@link Hop}'s verification: the mode's typed document, the mode-neutral
 * {@link VerifiedResult} (layers, delegation, depth) and the document as received.
 *
 * <p>Thread safety: immutable when {@code D} is.
 *
 * @param document the mode's verified document (LSVID: the decoded document; ID-Mode: the verified
 *     presentation; Anon-Mode: the token; DVID: the verified claims)
 * @param result what every mode's verification establishes
 * @param received the document as it came, which a mode that does not extend forwards unchanged
 */
public record Verified<D>(D document, VerifiedResult result, Received received) {

    /** Requires every part. */
    public Verified {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(received, "received");
    }

    /** The verified delegation ({@code dpa}, {@code dpr}). */
    public Delegation delegation() {
        return result.delegation();
    }

    /** The number of layers verified. */
    public int depth() {
        return result.depth();
    }

    /** The document as received, to forward without extending it. */
    public Outgoing unchanged() {
        return new Outgoing(received.token(), received.artifacts(), result.depth());
    }
}
