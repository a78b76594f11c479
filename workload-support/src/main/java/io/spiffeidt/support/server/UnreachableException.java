package io.spiffeidt.support.server;

/**
 * The cause of an {@link io.spiffeidt.core.ErrorCode#UPSTREAM_UNAVAILABLE} failure in which the peer
 * could not be reached at all, when no {@link java.net.ConnectException} says so: a downstream workload
 * that answered 503 {@code UPSTREAM_UNAVAILABLE} itself (its own peer was unreachable), or a database
 * whose connection could not be opened or broke. {@link io.spiffeidt.support.problem.ProblemDetailsAdvice} answers such a failure
 * 503 with {@code Retry-After}, as it answers connection refused, so that a client retries
 * (docs/formats/common.md §6); a peer that answered something unusable stays 502.
 *
 * <p>Thread safety: immutable.
 */
public final class UnreachableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what could not be reached (never a secret)
     * @param cause the failure seen, or {@code null} when the peer only said so
     */
    public UnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
