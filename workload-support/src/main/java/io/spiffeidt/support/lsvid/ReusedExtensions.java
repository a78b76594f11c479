package io.spiffeidt.support.lsvid;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.core.lsvid.LsvidPayload;
import io.spiffeidt.core.lsvid.LsvidToken;
import java.security.PrivateKey;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded memo of the extensions a workload signed, so that the same document forwarded to the
 * same next hop again, while the extension is young, is not signed and encoded again (issue 13: the
 * subject workload forwards one kept document on every request of a session, and the middle tier
 * then receives the same bytes every time). Package-private; see {@link LsvidHop#forward}.
 *
 * <p>An entry is found by the very document instance it extended (identity, not equality: the
 * subject workload's kept document, or the middle tier's document as its verifier's memo of
 * decoded documents returns it for the same bytes) and the audience, and is used only while
 *
 * <ul>
 *   <li>it was signed over the workload's current base with the current SVID key (a rotated SVID
 *       builds a new base, and the next hop's presenter check needs the new key), and
 *   <li>less than half of its lifetime ({@code exp - iat}) has passed, so the next hops always get
 *       a layer with at least half its life left.
 * </ul>
 *
 * <p>A full memo is cleared. Thread safety: safe for concurrent use; two requests may sign the same
 * extension under a race, and either is valid.
 */
final class ReusedExtensions {

    /** How many extensions a hop keeps by default. */
    static final int DEFAULT_CAPACITY = 256;

    private static final class Key {
        private final Lsvid document;
        private final SpiffeId audience;

        Key(Lsvid document, SpiffeId audience) {
            this.document = document;
            this.audience = audience;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.document == document && k.audience.equals(audience);
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(document) + audience.hashCode();
        }
    }

    private record Entry(LsvidHop.Extension extension, LsvidToken base, PrivateKey key, long reuseBefore) {}

    private final int capacity;
    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();

    /** A memo of at most {@code capacity} extensions (0 = remember nothing). */
    ReusedExtensions(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
    }

    /**
     * The extension of {@code document} for {@code audience} signed over {@code base} with {@code
     * key}, if one is remembered and less than half its lifetime has passed at {@code now}.
     */
    LsvidHop.Extension find(Lsvid document, SpiffeId audience, LsvidToken base, PrivateKey key, Instant now) {
        if (capacity == 0) {
            return null;
        }
        Entry e = entries.get(new Key(document, audience));
        if (e == null || e.base() != base || e.key() != key || now.getEpochSecond() >= e.reuseBefore()) {
            return null;
        }
        hits.increment();
        return e.extension();
    }

    /** Remembers {@code extension}, the extension of {@code document} for {@code audience}. */
    void remember(Lsvid document, SpiffeId audience, LsvidToken base, PrivateKey key, LsvidHop.Extension extension) {
        if (capacity == 0) {
            return;
        }
        LsvidPayload p = extension.document().token().payload();
        long reuseBefore = p.iat() + (p.exp() - p.iat()) / 2;
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(new Key(document, audience), new Entry(extension, base, key, reuseBefore));
    }

    /** How many extensions this memo keeps at most (0: none). */
    int capacity() {
        return capacity;
    }

    /** How many extensions are remembered. */
    int size() {
        return entries.size();
    }

    /** How many times a remembered extension was used. */
    long hits() {
        return hits.sum();
    }
}
