package io.spiffeidt.support.hop;

import java.time.Instant;
import java.util.Objects;

/**
 * What a {@link Minting} made: the mode's document and the parts every mode's asserting workload
 * answers and keeps.
 *
 * <p>Thread safety: immutable when {@code M} is.
 *
 * @param document the mode's minted document (DVID: {@code Dvid}; ID-Mode: the presentation;
 *     Anon-Mode: the root with its identifier; Txn-Token: the token; LSVID: the delegated document)
 * @param token what travels
 * @param artifacts the ID-Mode artifacts in JSON form, or {@code null}
 * @param depth the number of layers
 * @param rootId what the introspection record of the document is found by (DVID: {@code jti};
 *     ID-Mode: the root {@code P(0).S(0)} as the holder cannot rewrite it; Anon-Mode: the root
 *     {@code P(0).R(0)}), or {@code null} for a mode without introspection
 * @param expiresAt when the document expires
 */
public record Minted<M>(M document, String token, String artifacts, int depth, String rootId, Instant expiresAt) {

    /** Requires the document, the token and the expiry. */
    public Minted {
        Objects.requireNonNull(document, "document");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** A one-layer document without artifacts. */
    public static <M> Minted<M> root(M document, String token, String rootId, Instant expiresAt) {
        return new Minted<>(document, token, null, 1, rootId, expiresAt);
    }

    /** The characters of the token and the artifacts: the size {@code spiffeidt.document.size} records. */
    public int characters() {
        return token.length() + (artifacts == null ? 0 : artifacts.length());
    }

    @Override
    public String toString() {
        return "Minted[<" + token.length() + " chars>, depth " + depth + ", expires " + expiresAt + "]";
    }
}
