package io.spiffeidt.support.hop;

import io.spiffeidt.support.wire.DocumentRequest;
import java.util.Objects;

/**
 * What a hop puts on the wire to the next tier: the token text, the ID-Mode artifacts in JSON form
 * ({@code null} for the other modes) and the number of layers.
 *
 * <p>Thread safety: immutable.
 */
public record Outgoing(String token, String artifacts, int depth) {

    /** Requires the token. */
    public Outgoing {
        Objects.requireNonNull(token, "token");
    }

    /** The request body for the next tier's {@code /{mode}/balance} or {@code /{mode}/deposit}. */
    public DocumentRequest request(Long amount) {
        return new DocumentRequest(token, amount, artifacts);
    }

    @Override
    public String toString() {
        return "Outgoing[<" + token.length() + " chars>, depth " + depth + "]";
    }
}
