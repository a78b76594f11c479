package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.Limits;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded memo of the decoded form of encoded LSVID documents that verified, so that a document
 * presented again (a workload that reuses its extension while it is fresh sends the same bytes on
 * every request) is not decoded, parsed and checked for canonical form again. Package-private.
 *
 * <p>Sound because decoding is a function of the encoded text and the limits, nothing else: a hit
 * requires the exact same text (found by it, and so compared in full) and equal limits. Only the decoding
 * is skipped; every check of the verification runs on the remembered result as on a fresh one
 * (the signatures through the memos of bases and layers, with their own conditions). Only documents
 * that verified are kept, so input that fails cannot fill the memo.
 *
 * <p>Bounded in entries and in characters ({@link VerifiedLayers#DEFAULT_MAX_CHARS}); a full memo is
 * cleared, and a document longer than the whole budget is not remembered.
 *
 * <p>Thread safety: safe for concurrent use; the remembered {@link LsvidCodec.Decoded} values are
 * never modified after decoding.
 */
final class DecodedDocuments {

    private final int capacity;
    private final long maxChars;

    private record Entry(LsvidCodec.Decoded decoded, Limits limits) {}

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong chars = new AtomicLong();
    private final LongAdder hits = new LongAdder();

    /** A memo of at most {@code capacity} documents (0 = remember nothing) and {@code maxChars} characters. */
    DecodedDocuments(int capacity, long maxChars) {
        if (capacity < 0 || maxChars < 0) {
            throw new IllegalArgumentException("capacity and maxChars must not be negative");
        }
        this.capacity = capacity;
        this.maxChars = maxChars;
    }

    /** Whether this memo remembers anything (capacity above 0). */
    boolean remembers() {
        return capacity > 0;
    }

    /** The remembered decoding of exactly {@code encoded} under equal {@code limits}, or {@code null}. */
    LsvidCodec.Decoded find(String encoded, Limits limits) {
        if (capacity == 0 || encoded == null) {
            return null;
        }
        Entry known = entries.get(encoded);
        if (known == null || !known.limits().equals(limits)) {
            return null;
        }
        hits.increment();
        return known.decoded();
    }

    /** Remembers the decoding of {@code encoded} under {@code limits}, a document that verified. */
    void remember(String encoded, Limits limits, LsvidCodec.Decoded decoded) {
        if (capacity == 0 || encoded.length() > maxChars) {
            return;
        }
        if (entries.size() >= capacity || chars.get() + encoded.length() > maxChars) {
            entries.clear();
            chars.set(0);
        }
        if (entries.putIfAbsent(encoded, new Entry(decoded, limits)) == null) {
            chars.addAndGet(encoded.length());
        }
    }

    /** How many documents are remembered. */
    int size() {
        return entries.size();
    }

    /** How many characters of encoded text are remembered. */
    long chars() {
        return chars.get();
    }

    /** How many times a remembered document was found. */
    long hits() {
        return hits.sum();
    }
}
