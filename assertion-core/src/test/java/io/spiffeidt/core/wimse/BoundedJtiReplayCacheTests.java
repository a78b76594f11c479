package io.spiffeidt.core.wimse;

import static io.spiffeidt.testkit.AssertionExceptionAssert.assertThatAssertion;
import static org.assertj.core.api.Assertions.assertThat;

import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link BoundedJtiReplayCache}: once per sender and jti, forgets only the expired, fails closed when full. */
class BoundedJtiReplayCacheTests {

    static final Instant NOW = Instant.ofEpochSecond(1_790_000_000L);
    static final SpiffeId A = SpiffeId.parse("spiffe://example.org/a");
    static final SpiffeId B = SpiffeId.parse("spiffe://example.org/b");

    private final MutableClock clock = MutableClock.at(NOW);

    @Test
    void checkWhenSameSenderAndJtiAgainThenReplayed() {
        BoundedJtiReplayCache cache = new BoundedJtiReplayCache(10, clock);
        cache.checkAndRemember(A, "j1", NOW.plusSeconds(90));

        assertThatAssertion(() -> cache.checkAndRemember(A, "j1", NOW.plusSeconds(90)))
                .hasCode(ErrorCode.REPLAYED);
    }

    @Test
    void checkWhenSameJtiFromAnotherSenderThenAccepted() {
        BoundedJtiReplayCache cache = new BoundedJtiReplayCache(10, clock);
        cache.checkAndRemember(A, "j1", NOW.plusSeconds(90));
        cache.checkAndRemember(B, "j1", NOW.plusSeconds(90));

        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void checkWhenFullOfUnexpiredEntriesThenLimitExceededAndNothingForgotten() {
        BoundedJtiReplayCache cache = new BoundedJtiReplayCache(2, clock);
        cache.checkAndRemember(A, "j1", NOW.plusSeconds(90));
        cache.checkAndRemember(A, "j2", NOW.plusSeconds(90));

        assertThatAssertion(() -> cache.checkAndRemember(A, "j3", NOW.plusSeconds(90)))
                .hasCode(ErrorCode.LIMIT_EXCEEDED);
        assertThatAssertion(() -> cache.checkAndRemember(A, "j1", NOW.plusSeconds(90)))
                .hasCode(ErrorCode.REPLAYED);
    }

    @Test
    void checkWhenEntryExpiredThenForgottenAndPlaceFreed() {
        BoundedJtiReplayCache cache = new BoundedJtiReplayCache(1, clock);
        cache.checkAndRemember(A, "j1", NOW.plusSeconds(90));
        clock.advance(Duration.ofSeconds(90));

        cache.checkAndRemember(A, "j2", NOW.plusSeconds(180));

        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void checkWhenEntryNotYetExpiredThenStillRefused() {
        BoundedJtiReplayCache cache = new BoundedJtiReplayCache(1, clock);
        cache.checkAndRemember(A, "j1", NOW.plusSeconds(90));
        clock.advance(Duration.ofSeconds(89));

        assertThatAssertion(() -> cache.checkAndRemember(A, "j1", NOW.plusSeconds(90)))
                .hasCode(ErrorCode.REPLAYED);
    }
}
