package io.spiffeidt.support.oauth;

/**
 * A request to a resource that needs a bearer access token carries none ({@code Authorization}
 * missing, or another scheme): RFC 6750 section 3.1 answers 401 with {@code WWW-Authenticate:
 * Bearer} and no error code; the problem's code is {@value #CODE}, as subject-wl's own API answers.
 *
 * <p>Thread safety: immutable.
 */
public class MissingAccessTokenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The problem code of a missing bearer token. */
    public static final String CODE = "TOKEN_REQUIRED";

    public MissingAccessTokenException() {
        super("an Authorization: Bearer access token is required");
    }
}
