package io.spiffeidt.support.oauth;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;

/**
 * An access token that does not verify (RFC 6750 section 3.1 {@code invalid_token}): answered 401
 * with {@code WWW-Authenticate: Bearer error="invalid_token"} and a problem body with the specific
 * {@link #code()}, whatever status that code has elsewhere.
 *
 * <p>Thread safety: immutable.
 */
public class InvalidAccessTokenException extends AssertionException {

    private static final long serialVersionUID = 1L;

    /**
     * @param code the rule the token broke
     * @param message what happened (never the token)
     * @param cause the underlying failure, or {@code null}
     */
    public InvalidAccessTokenException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
