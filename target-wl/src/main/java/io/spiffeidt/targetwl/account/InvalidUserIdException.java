package io.spiffeidt.targetwl.account;

/**
 * A user ID was refused before reaching the database: {@code null}, empty, longer than {@link
 * AccountRepository#MAX_USER_ID_BYTES} UTF-8 bytes, containing U+0000 or not well-formed UTF-16. A
 * client error (HTTP 400), never a server fault.
 *
 * <p>Thread safety: immutable.
 */
public class InvalidUserIdException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the user ID (the ID itself is not repeated)
     */
    public InvalidUserIdException(String message) {
        super(message);
    }
}
