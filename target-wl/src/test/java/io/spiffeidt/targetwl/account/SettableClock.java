package io.spiffeidt.targetwl.account;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicReference;

/** A clock the test moves by hand (whole microseconds, the precision both databases store). */
final class SettableClock extends Clock {

    private final AtomicReference<Instant> now;

    SettableClock(Instant start) {
        this.now = new AtomicReference<>(start.truncatedTo(ChronoUnit.MICROS));
    }

    Instant advance(Duration by) {
        return now.updateAndGet(t -> t.plus(by).truncatedTo(ChronoUnit.MICROS));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the test clock is UTC only");
    }
}
