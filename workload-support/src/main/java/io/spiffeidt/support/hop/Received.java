package io.spiffeidt.support.hop;

import io.spiffeidt.support.wire.DocumentRequest;
import java.util.Objects;

/**
 * A document as it came on the wire, before any check: the token text and, for ID-Mode, the
 * artifacts side-car in JSON form ({@code null} for the other modes).
 *
 * <p>Thread safety: immutable.
 */
public record Received(String token, String artifacts) {

    /** Requires the token. */
    public Received {
        Objects.requireNonNull(token, "token");
    }

    /** The document of a request body. */
    public static Received of(DocumentRequest request) {
        return new Received(request.token(), request.artifacts());
    }

    /** A document without artifacts. */
    public static Received of(String token) {
        return new Received(token, null);
    }

    /** The characters of the token and the artifacts: the document's size as received. */
    public int characters() {
        return token.length() + (artifacts == null ? 0 : artifacts.length());
    }

    @Override
    public String toString() {
        return "Received[<" + token.length() + " chars>]";
    }
}
