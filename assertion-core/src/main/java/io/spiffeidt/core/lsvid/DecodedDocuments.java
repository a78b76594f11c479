package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.Memos;

/**
 * The memo of the decoded form of encoded LSVID documents that verified, so that a document
 * presented again (a workload that reuses its extension while it is fresh sends the same bytes on
 * every request) is not decoded, parsed and checked for canonical form again. Package-private.
 *
 * <p>Sound because decoding is a function of the encoded text and the limits, nothing else: a hit
 * requires the exact same text (found by it, and so compared in full) and equal limits. Only the decoding
 * is skipped; every check of the verification runs on the remembered result as on a fresh one
 * (the signatures through the memos of bases and layers, with their own conditions). Only documents
 * that verified are kept, so input that fails cannot fill the memo.
 *
 * <p>The {@link Memo} {@code lsvid-document}; each entry weighs its encoded text's length against
 * the memo's character budget.
 *
 * <p>Thread safety: safe for concurrent use; the remembered {@link LsvidCodec.Decoded} values are
 * never modified after decoding.
 */
final class DecodedDocuments {

    private record Entry(LsvidCodec.Decoded decoded, Limits limits) {}

    /** The name of this memo in settings and metrics. */
    static final String NAME = "lsvid-document";

    private final Memo<String, Entry> memo;

    /** The memo {@link #NAME} of {@code memos}. */
    DecodedDocuments(Memos memos) {
        this.memo = memos.memo(NAME, Expiry.ttl());
    }

    /** Whether this memo remembers anything. */
    boolean remembers() {
        return memo.remembers();
    }

    /** The remembered decoding of exactly {@code encoded} under equal {@code limits}, or {@code null}. */
    LsvidCodec.Decoded find(String encoded, Limits limits) {
        if (encoded == null) {
            return null;
        }
        Entry known = memo.get(encoded, e -> e.limits().equals(limits));
        return known == null ? null : known.decoded();
    }

    /** Remembers the decoding of {@code encoded} under {@code limits}, a document that verified. */
    void remember(String encoded, Limits limits, LsvidCodec.Decoded decoded) {
        memo.put(encoded, new Entry(decoded, limits), encoded.length());
    }

    /** How many documents are remembered. */
    int size() {
        return memo.size();
    }

    /** How many characters of encoded text are remembered. */
    long chars() {
        return memo.chars();
    }

    /** How many times a remembered document was found. */
    long hits() {
        return memo.hits();
    }
}
