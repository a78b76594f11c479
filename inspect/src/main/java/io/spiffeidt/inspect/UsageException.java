package io.spiffeidt.inspect;

/**
 * A usage error: a missing or unreadable file, a bad option value, an input whose format cannot be
 * detected. The inspector exits with {@link Inspect#EXIT_USAGE}. Messages never quote key material.
 */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }

    UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
