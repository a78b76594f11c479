package io.spiffeidt.support.server;

import java.util.Optional;

/**
 * The time a request may still take (docs/operations.md "Overload and deadlines"). The first
 * workload of a call path gives every user request a budget; each downstream call carries what is
 * left, less a margin per hop, in the header {@value #HEADER} (milliseconds, like gRPC's {@code
 * grpc-timeout}: relative, so clocks need not agree), and a workload adopts the smaller of that and
 * its own budget. No tier starts work its caller can no longer use, and a downstream call waits no
 * longer than the request has left.
 *
 * <p>Bound to the request's thread by {@link AdmissionFilter} for the time of the request.
 *
 * <p>Thread safety: immutable; the binding is per thread.
 */
public final class Deadline {

    /** The header carrying the remaining milliseconds to a downstream workload. */
    public static final String HEADER = "Spiffeidt-Timeout-Ms";

    /** The longest budget a header may ask for (one day): more is a malformed header. */
    static final long MAX_MILLIS = 86_400_000L;

    private static final ThreadLocal<Deadline> CURRENT = new ThreadLocal<>();

    private final long endNanos;

    private Deadline(long endNanos) {
        this.endNanos = endNanos;
    }

    /** A deadline {@code millis} from now. */
    public static Deadline afterMillis(long millis) {
        return new Deadline(System.nanoTime() + Math.max(0, millis) * 1_000_000L);
    }

    /** The deadline of the request this thread serves, if any. */
    public static Optional<Deadline> current() {
        return Optional.ofNullable(CURRENT.get());
    }

    /** Milliseconds left (negative when passed). */
    public long remainingMillis() {
        return Math.floorDiv(endNanos - System.nanoTime(), 1_000_000L);
    }

    /** Whether it has passed. */
    public boolean passed() {
        return endNanos - System.nanoTime() <= 0;
    }

    /**
     * Fails when the deadline of this thread's request has passed: call it before work that must
     * not happen for a caller that has given up (a deposit's commit).
     *
     * @throws RequestRefusedException 504 {@code DEADLINE_EXCEEDED}
     */
    public static void checkCurrent(String what) {
        Deadline d = CURRENT.get();
        if (d != null && d.passed()) {
            throw RequestRefusedException.deadlineExceeded("the request's deadline passed before " + what);
        }
    }

    /**
     * Parses the header value: decimal milliseconds, 0 to {@value #MAX_MILLIS}.
     *
     * @throws IllegalArgumentException for anything else
     */
    static long parseHeader(String value) {
        if (value == null
                || value.isEmpty()
                || value.length() > 9
                || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException(HEADER + " must be decimal milliseconds");
        }
        long millis = Long.parseLong(value);
        if (millis > MAX_MILLIS) {
            throw new IllegalArgumentException(HEADER + " over one day");
        }
        return millis;
    }

    static void bind(Deadline deadline) {
        CURRENT.set(deadline);
    }

    static void unbind() {
        CURRENT.remove();
    }
}
