package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import java.time.Instant;

/**
 * The single-use check of a WPT's {@code jti} (docs/formats/wimse.md "Replay";
 * draft-ietf-wimse-wpt-02 §2, §3.1.4): remembers each {@code (sender, jti)} it accepted until the
 * time after which the WPT is refused as expired anyway, and refuses it a second time. The verifier
 * calls it last, after every other check passed, so a forged or misdirected WPT never takes a place.
 *
 * <p>A cache is per verifier instance: replicas that do not share one accept a WPT once each (the
 * draft's §3.1.4 caveat); the hop decides whether that is acceptable.
 *
 * <p>Thread safety: implementations must be safe for concurrent use, and the check-and-remember
 * atomic: of two concurrent calls with the same pair, exactly one returns.
 */
@FunctionalInterface
public interface JtiReplayCache {

    /**
     * Remembers {@code jti} of {@code sender} until {@code forgetAfter}, or refuses it.
     *
     * @param sender the workload that signed the WPT (its WIT's {@code sub}): the draft scopes replay
     *     per sender
     * @param jti the WPT's {@code jti}
     * @param forgetAfter when the entry may go: the WPT's {@code exp} plus the clock skew
     * @throws AssertionException {@link ErrorCode#REPLAYED} when the pair was accepted before and has
     *     not been forgotten; {@link ErrorCode#LIMIT_EXCEEDED} when the cache cannot remember one more
     *     entry (it fails closed rather than forget one still needed)
     */
    void checkAndRemember(SpiffeId sender, String jti, Instant forgetAfter);
}
