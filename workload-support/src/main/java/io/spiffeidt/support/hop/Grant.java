package io.spiffeidt.support.hop;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import java.time.Instant;
import java.util.Objects;

/**
 * What the asserting workload mints a document for: the caller it is addressed to and the user of a
 * verified OAuth token ({@code dpa} = its issuer, {@code dpr} = its subject), never living past the
 * token ({@code notAfter}).
 *
 * <p>Thread safety: immutable.
 */
public record Grant(SpiffeId audience, String dpa, String dpr, Instant notAfter) {

    /** Requires every part. */
    public Grant {
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(dpa, "dpa");
        Objects.requireNonNull(dpr, "dpr");
        Objects.requireNonNull(notAfter, "notAfter");
    }

    /** A grant to {@code caller} for the user of {@code oauth}. */
    public static Grant of(VerifiedOAuthToken oauth, Caller caller) {
        return new Grant(caller.id(), oauth.issuer(), oauth.subject(), oauth.expiresAt());
    }
}
