package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.SpiffeId;
import java.time.Instant;
import java.util.Objects;

/**
 * What the Txn-Token Service mints a token for (docs/formats/txn-token.md "Token exchange"): the user
 * of a verified subject token, the purpose, and the workload that asked.
 *
 * <p>Thread safety: immutable.
 *
 * @param userIssuer the user's IdP (the access token's {@code iss}; becomes {@code tctx.dpa})
 * @param subject the user (the access token's {@code sub}; becomes {@code sub})
 * @param scope the granted scope (space-delimited; becomes {@code scope})
 * @param requestingWorkload the mTLS peer that asked (becomes {@code req_wl})
 * @param subjectTokenExpiresAt the subject token's {@code exp}: nothing is minted after it
 */
public record TxnTokenRequest(
        String userIssuer, String subject, String scope, SpiffeId requestingWorkload, Instant subjectTokenExpiresAt) {

    /** Requires every part. */
    public TxnTokenRequest {
        Objects.requireNonNull(userIssuer, "userIssuer");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(requestingWorkload, "requestingWorkload");
        Objects.requireNonNull(subjectTokenExpiresAt, "subjectTokenExpiresAt");
    }
}
