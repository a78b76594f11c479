package io.spiffeidt.support.hop;

import io.spiffeidt.support.wire.DocumentRequest;
import java.util.Map;
import java.util.Objects;

/**
 * What a hop puts on the wire to the next tier: the token text, the ID-Mode artifacts in JSON form
 * ({@code null} for the other modes), the number of layers, and the request headers a baseline
 * (mtls-only, bearer-forward, txn-token) sends instead of a body token (empty for the document modes).
 *
 * <p>Thread safety: immutable.
 *
 * @param token what travels: the document, or for a mode without one the value its header carries
 * @param artifacts the ID-Mode certificate side-car, or {@code null}
 * @param depth the number of layers (1 for a mode without a document)
 * @param headers the headers that carry {@code token} instead of the body (empty: the body carries it)
 * @param headerDocument whether {@code token} in the headers is a document (a credential the next
 *     tier verifies: the Txn-Token, the forwarded access token) rather than the caller's word (the
 *     user header of mtls-only); {@code false} when the body carries the document
 */
public record Outgoing(String token, String artifacts, int depth, Map<String, String> headers, boolean headerDocument) {

    /** Requires the token; copies the headers. */
    public Outgoing {
        Objects.requireNonNull(token, "token");
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        headerDocument = headerDocument && !headers.isEmpty();
    }

    /** A document carried in the request body. */
    public Outgoing(String token, String artifacts, int depth) {
        this(token, artifacts, depth, Map.of(), false);
    }

    /**
     * What a baseline with a credential sends: the document {@code token} in one header ({@code
     * value}: the header's text, e.g. {@code Bearer <token>}), nothing in the body.
     */
    public static Outgoing inHeader(String token, String header, String value) {
        return new Outgoing(token, null, 1, Map.of(header, value), true);
    }

    /** What a baseline without a document sends: {@code value} in one header, nothing in the body. */
    public static Outgoing wordInHeader(String header, String value) {
        return new Outgoing(value, null, 1, Map.of(header, value), false);
    }

    /**
     * The characters of the token and the artifacts: the size {@code spiffeidt.document.size} records
     * of what a hop wrote.
     */
    public int characters() {
        return token.length() + (artifacts == null ? 0 : artifacts.length());
    }

    /**
     * The characters of the document the headers carry (the token, not the header's scheme), as the
     * downstream client counts it for {@code spiffeidt.http.client.document.size}; -1 when they
     * carry none (the body carries the document, or only the caller's word travels).
     */
    public long headerDocumentCharacters() {
        return headerDocument ? token.length() : -1;
    }

    /**
     * The request body for the next tier's {@code /{mode}/balance} or {@code /{mode}/deposit}: the
     * document, or only the amount when the headers carry what travels.
     */
    public DocumentRequest request(Long amount) {
        return headers.isEmpty()
                ? new DocumentRequest(token, amount, artifacts)
                : new DocumentRequest(null, amount, null);
    }

    @Override
    public String toString() {
        return "Outgoing[<" + token.length() + " chars>, depth " + depth + ", headers " + headers.keySet() + "]";
    }
}
