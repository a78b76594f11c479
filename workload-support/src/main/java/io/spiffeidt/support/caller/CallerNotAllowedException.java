package io.spiffeidt.support.caller;

/**
 * The mTLS peer may not call this endpoint (or presented no SVID). Rendered as 403 "Caller not
 * allowed" without a {@code code} property: the closed code set is for documents.
 *
 * <p>Thread safety: immutable.
 */
public class CallerNotAllowedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message names the SPIFFE IDs and the endpoint, nothing else */
    public CallerNotAllowedException(String message) {
        super(message);
    }
}
