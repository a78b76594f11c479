package io.spiffeidt.devstack.workloadapi;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Polls until a condition holds or a deadline passes; the caller asserts on the last value. */
final class Await {

    private static final long POLL_MILLIS = 20;

    private Await() {}

    static <T> T until(Supplier<T> probe, Predicate<T> done, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        T value = probe.get();
        while (!done.test(value) && Instant.now().isBefore(deadline)) {
            Thread.sleep(POLL_MILLIS);
            value = probe.get();
        }
        return value;
    }
}
