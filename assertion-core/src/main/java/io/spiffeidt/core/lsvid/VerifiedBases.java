package io.spiffeidt.core.lsvid;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.Memos;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;

/**
 * The memo of LSVID base documents that passed the full base verification (anchoring, key binding,
 * signature), by the exact canonical text of the base token, so that a long-lived base (it lives as
 * long as its SVID and rides in every request of its workload) is verified once: the
 * {@link Memo} {@code lsvid-base} with its key rule. Package-private.
 *
 * <p>Sound because that verification depends only on the token's bytes (the key: the document is
 * proven canonical before, so the text is the received bytes), the trust bundle and profile
 * (compared on every hit), and the time: every hit re-checks the base's {@code iat}/{@code exp}
 * with the verifier's time rules and that the time lies inside the validity of every certificate
 * of its {@code x5c}. A hit that fails any of these is not used: the base is verified in full again
 * (and fails with its own code). Only successes are kept.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class VerifiedBases {

    /** The name of this memo in settings and metrics. */
    static final String NAME = "lsvid-base";

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

    private final Memo<String, Entry> memo;

    /** The memo {@link #NAME} of {@code memos}. */
    VerifiedBases(Memos memos) {
        // the times are checked against the verifier's time on every hit
        this.memo = memos.memo(NAME, Expiry.ttl());
    }

    /**
     * The entry for {@code canonical} when it was verified under an equal {@code bundle} and {@code
     * version} and {@code at} lies inside its certificates' validity; the caller still re-checks
     * the base's own times.
     */
    Entry find(String canonical, TrustBundle bundle, int version, Instant at) {
        if (!memo.remembers()) {
            return null;
        }
        return memo.get(
                canonical,
                e -> e.version() == version
                        && !at.isBefore(e.validFrom())
                        && !at.isAfter(e.validUntil())
                        && e.bundle().equals(bundle));
    }

    /** Remembers a fully verified base. */
    void remember(String canonical, Entry entry) {
        memo.put(canonical, entry);
    }

    /** How many bases are remembered. */
    int size() {
        return memo.size();
    }
}
