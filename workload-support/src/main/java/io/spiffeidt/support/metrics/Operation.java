package io.spiffeidt.support.metrics;

/**
 * The closed set of values of the {@code operation} tag of the timer {@code spiffeidt.operation}.
 * What each one includes, and which tier records it, is the table of docs/operations.md: a local
 * operation never contains a network call, and every downstream call is its own {@code *_CALL}.
 *
 * <p>Thread safety: immutable.
 */
public enum Operation {
    /** Getting the issuer's signing keys for one OAuth token (HTTP GET or cache lookup). */
    JWKS_FETCH("jwks_fetch"),
    /** The whole OAuth access-token verification, {@link #JWKS_FETCH} included. */
    OAUTH_VERIFY("oauth_verify"),
    /** The proof of knowledge of the OAuth token's signature. */
    ZKP_GENERATION("zkp_generation"),
    /** Verifying that proof against the document's {@code dpa}/{@code dpr}. */
    ZKP_VERIFICATION("zkp_verification"),
    /** Local creation of the asserted document at the asserting workload. */
    MINT("mint"),
    /** Local extension of a document by one hop. */
    EXTEND("extend"),
    /** Local verification only; never a downstream call. */
    VALIDATE("validate"),
    /** A fresh X.509 source, SSL context and HTTP client for one request (fresh-source strategy). */
    MTLS_CLIENT_SETUP("mtls_client_setup"),
    /** subject-wl's call to the asserting workload's mint endpoint. */
    MINT_CALL("mint_call"),
    /** A call to the asserting workload's {@code /dvid/validate}. */
    VALIDATE_CALL("validate_call"),
    /** A call to the asserting workload's {@code /{mode}/introspect}. */
    INTROSPECT_CALL("introspect_call"),
    /** subject-wl's call to the middle tier. */
    MTIER_CALL("mtier_call"),
    /** The middle tier's call to the target workload (the thesis' "target request"). */
    TARGET_CALL("target_call"),
    /** The account read or deposit. */
    DB_QUERY("db_query");

    private final String tagValue;

    Operation(String tagValue) {
        this.tagValue = tagValue;
    }

    /** The value of the {@code operation} tag, e.g. {@code validate_call}. */
    public String tagValue() {
        return tagValue;
    }
}
