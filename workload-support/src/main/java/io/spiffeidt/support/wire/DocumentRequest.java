package io.spiffeidt.support.wire;

import jakarta.validation.constraints.Size;

/**
 * A document in a JSON body (the four documents never travel in URLs or headers), with the deposit
 * amount for {@code /{mode}/deposit}. {@code artifacts} carries the ID-Mode certificate side-car.
 * The baselines send no {@code token}: what they carry travels in a header (mtls-only's user,
 * bearer-forward's {@code Authorization}, and the Txn-Token in the {@code Txn-Token} header its
 * draft defines), and each hop's {@link io.spiffeidt.support.hop.Hop#receive} says which it
 * requires (a document mode refuses a blank token with {@code MALFORMED}, a baseline a body token).
 */
public record DocumentRequest(@Size(max = 262144) String token, Long amount, @Size(max = 262144) String artifacts) {

    /** A document without amount or artifacts. */
    public static DocumentRequest of(String token) {
        return new DocumentRequest(token, null, null);
    }

    /**
     * The document's size in characters (token and artifacts; the encodings are ASCII, so bytes),
     * as {@code spiffeidt.document.size} counts it.
     */
    public long characters() {
        return (token == null ? 0 : token.length()) + (artifacts == null ? 0 : artifacts.length());
    }

    @Override
    public String toString() {
        return "DocumentRequest[token=<" + (token == null ? 0 : token.length()) + " chars>, amount=" + amount + "]";
    }
}
