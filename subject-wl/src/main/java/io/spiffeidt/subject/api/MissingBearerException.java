package io.spiffeidt.subject.api;

/** The request carries no usable {@code Authorization: Bearer} token (answered with 401). */
public class MissingBearerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MissingBearerException() {
        super("an Authorization: Bearer access token is required");
    }
}
