package io.spiffeidt.core;

/**
 * The closed set of error codes of docs/formats/common.md "Errors", with the HTTP status a service maps
 * each to.
 *
 * <p>Thread safety: immutable.
 */
public enum ErrorCode {
    /** Cannot be decoded or parsed; wrong segment count or sizes. */
    MALFORMED(400),
    /** A configured limit was hit (size maps to 413 at the HTTP layer). */
    LIMIT_EXCEEDED(400),
    /** Unknown version, algorithm or key type. */
    UNSUPPORTED(400),
    /** A signature does not verify. */
    BAD_SIGNATURE(401),
    /** The zero-knowledge proof does not verify or is degenerate. */
    BAD_PROOF(401),
    /** A key or certificate does not chain to the trust bundle, or its SPIFFE ID does not match. */
    UNTRUSTED_KEY(401),
    /** A layer's {@code iss} is not the {@code aud} of the layer it wraps. */
    BROKEN_LINK(401),
    /** The document (or a layer) has expired. */
    EXPIRED(401),
    /** The document (or a layer) is not yet valid. */
    NOT_YET_VALID(401),
    /**
     * A single-use proof (a WIMSE Workload Proof Token's {@code jti}) was already accepted within its
     * lifetime (docs/formats/wimse.md "Replay").
     */
    REPLAYED(401),
    /** The outermost audience is not the verifier. */
    WRONG_AUDIENCE(403),
    /** The mTLS peer is not the outermost issuer (name or key). */
    WRONG_PRESENTER(403),
    /** No, more than one, or an unpinned delegation layer. */
    DELEGATION_INVALID(403),
    /** The OAuth issuer is not on the allow-list. */
    UNKNOWN_ISSUER(401),
    /** Introspection knows nothing of this document. */
    NOT_FOUND(404),
    /** A call to another workload or the IdP failed. */
    UPSTREAM_UNAVAILABLE(502),
    /**
     * An {@code Idempotency-Key} header that is not one structured-field string of 1 to 255
     * characters (docs/formats/common.md "Idempotent deposits").
     */
    IDEMPOTENCY_KEY_INVALID(400),
    /** An {@code Idempotency-Key} already used by this user for a different deposit. */
    IDEMPOTENCY_KEY_MISMATCH(422);

    private final int httpStatus;

    ErrorCode(int httpStatus) {
        this.httpStatus = httpStatus;
    }

    /** The default HTTP status for this code (docs/formats/common.md). */
    public int httpStatus() {
        return httpStatus;
    }
}
