package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bounded memo of LSVID base documents that passed the full base verification (anchoring,
 * key binding, signature), by the exact canonical text of the base token, so that a long-lived
 * base (it lives as long as its SVID and rides in every request of its workload) is verified once
 * (issue 13). Package-private.
 *
 * <p>Sound because that verification depends only on the token's bytes (the key: the document is
 * proven canonical before, so the text is the received bytes), the trust bundle and profile
 * (compared on every hit), and the time: every hit re-checks the base's {@code iat}/{@code exp}
 * with the verifier's time rules and that the time lies inside the validity of every certificate
 * of its {@code x5c}. A hit that fails any of these is not used: the base is verified in full again
 * (and fails with its own code). Only successes are kept; a full memo is cleared.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedBases {

    /** What a full verification established, and under which conditions. */
    record Entry(
            TrustBundle bundle,
            int version,
            SpiffeId owner,
            ECPublicKey key,
            Instant issuedAt,
            Instant expiresAt,
            Instant validFrom,
            Instant validUntil) {}

    private final int capacity;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    /** A memo of at most {@code capacity} bases (0 = remember nothing). */
    VerifiedBases(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
    }

    /**
     * The entry for {@code canonical} when it was verified under an equal {@code bundle} and {@code
     * version} and {@code at} lies inside its certificates' validity; the caller still re-checks
     * the base's own times.
     */
    Entry find(String canonical, TrustBundle bundle, int version, Instant at) {
        if (capacity == 0) {
            return null;
        }
        Entry e = entries.get(canonical);
        if (e == null
                || e.version() != version
                || at.isBefore(e.validFrom())
                || at.isAfter(e.validUntil())
                || !e.bundle().equals(bundle)) {
            return null;
        }
        return e;
    }

    /** Remembers a fully verified base. */
    void remember(String canonical, Entry entry) {
        if (capacity == 0) {
            return;
        }
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(canonical, entry);
    }

    /** How many bases are remembered. */
    int size() {
        return entries.size();
    }
}
