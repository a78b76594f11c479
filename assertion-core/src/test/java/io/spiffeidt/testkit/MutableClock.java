package io.spiffeidt.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it ({@link #set}, {@link #advance}); thread-safe.
 * {@link Clock#fixed} is enough for one instant; this one is for tests about expiry, caches and
 * rotation, where time must pass between two calls.
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /** A clock at {@code start}, in UTC. */
    public static MutableClock at(Instant start) {
        return new MutableClock(new AtomicReference<>(Objects.requireNonNull(start, "start")), ZoneOffset.UTC);
    }

    /** A clock at {@code epochSecond}, in UTC. */
    public static MutableClock atEpochSecond(long epochSecond) {
        return at(Instant.ofEpochSecond(epochSecond));
    }

    /** Moves the clock to {@code instant} (forwards or backwards). */
    public void set(Instant instant) {
        now.set(Objects.requireNonNull(instant, "instant"));
    }

    /** Moves the clock by {@code amount} (negative moves it back) and returns the new time. */
    public Instant advance(Duration amount) {
        Objects.requireNonNull(amount, "amount");
        return now.updateAndGet(t -> t.plus(amount));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same moving time seen in another zone: moving either clock moves both. */
    @Override
    public Clock withZone(ZoneId other) {
        return new MutableClock(now, other);
    }
}
