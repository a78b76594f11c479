package io.spiffeidt.subject.flow;

import io.spiffeidt.subject.session.KeptDocument;
import java.util.Map;

/**
 * A freshly minted document with what the page shows of it: the decoded header (where the format has
 * one) and claims. For a mode without a document ({@link io.spiffeidt.core.Mode#hasDocument()}) the
 * kept "document" is what travels instead (a header value, the access token), which the mint answer
 * never shows ({@code shown} false): the claims say what would travel.
 *
 * @param document what is kept for the user and mode
 * @param header the decoded header, or {@code null}
 * @param claims what the page shows of it
 * @param shown whether the mint answer may carry the kept text
 */
public record MintedDocument(KeptDocument document, Map<String, Object> header, Object claims, boolean shown) {

    /** A document the mint answer shows. */
    public MintedDocument(KeptDocument document, Map<String, Object> header, Object claims) {
        this(document, header, claims, true);
    }

    /** What a mode without a document keeps, never shown: {@code claims} describe what travels. */
    public static MintedDocument withoutDocument(KeptDocument kept, Object claims) {
        return new MintedDocument(kept, null, claims, false);
    }
}
