package io.spiffeidt.testkit;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * The one polling helper of the tests: asks a probe until its answer satisfies a condition or a
 * deadline passes, and returns the last answer, on which the caller asserts (so a timeout fails
 * with the value that was seen, never silently).
 *
 * <pre>{@code
 * assertThat(Await.until(() -> client.serverLeaf("m-tier"), expected::equals, Duration.ofSeconds(20)))
 *         .isEqualTo(expected);
 * }</pre>
 */
public final class Await {

    private static final Duration POLL = Duration.ofMillis(20);

    private Await() {}

    /** A probe of the state being waited for; it may throw, and an assertion in it fails the wait. */
    @FunctionalInterface
    public interface Probe<T, E extends Exception> {
        T get() throws E;
    }

    /** As {@link #until(Probe, Predicate, Duration, Duration)}, asking every 20 ms. */
    public static <T, E extends Exception> T until(Probe<T, E> probe, Predicate<? super T> done, Duration timeout)
            throws E, InterruptedException {
        return until(probe, done, timeout, POLL);
    }

    /**
     * Asks {@code probe} until {@code done} holds for its answer or {@code timeout} has passed,
     * waiting {@code poll} between two questions; returns the last answer.
     */
    public static <T, E extends Exception> T until(
            Probe<T, E> probe, Predicate<? super T> done, Duration timeout, Duration poll)
            throws E, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        T value = probe.get();
        while (!done.test(value) && Instant.now().isBefore(deadline)) {
            Thread.sleep(poll.toMillis());
            value = probe.get();
        }
        return value;
    }
}
