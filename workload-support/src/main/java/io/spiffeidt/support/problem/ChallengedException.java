package io.spiffeidt.support.problem;

import io.spiffeidt.core.AssertionException;

/**
 * A refused credential whose 401 answer names the authentication scheme the request should have
 * used ({@code WWW-Authenticate}, RFC 9110 §11.6.1): the WPT of mode wimse (draft-ietf-wimse-wpt-02
 * §2.1). The code, layer and message are those of the refusal it carries. Its answer is 401 with the
 * challenge whatever the code (a WIT without {@code cnf} is {@code MALFORMED}, {@code alg: none}
 * {@code UNSUPPORTED}, both 400 elsewhere), except a credential that verifies but is not for this
 * request (403: another URI, method or Txn-Token, another workload's WIT), which answers 403.
 *
 * <p>Thread safety: immutable.
 */
public class ChallengedException extends AssertionException {

    private final String scheme;

    /**
     * @param refusal the check's refusal
     * @param scheme the scheme of the challenge, e.g. {@code WPT}
     */
    public ChallengedException(AssertionException refusal, String scheme) {
        super(refusal.code(), refusal.layer().orElse(-1), refusal.getMessage(), refusal);
        this.scheme = scheme;
    }

    /** The authentication scheme of the challenge. */
    public String scheme() {
        return scheme;
    }
}
