package io.spiffeidt.targetwl.account;

/**
 * A deposit was refused because its amount is not positive or would overflow the balance; the
 * balance is unchanged. A client error (HTTP 400), never a server fault.
 *
 * <p>Thread safety: immutable.
 */
public class InvalidAmountException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the amount (never the user ID or any token)
     */
    public InvalidAmountException(String message) {
        super(message);
    }
}
