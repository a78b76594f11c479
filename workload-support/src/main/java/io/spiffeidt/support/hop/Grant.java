package io.spiffeidt.support.hop;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import java.time.Instant;
import java.util.Objects;

/**
 * What the asserting workload mints a document for ({@link Minting#mint}): the caller it is
 * addressed to and the user of a verified OAuth token ({@code dpa} = its issuer, {@code dpr} = its
 * subject), never living past the token ({@code notAfter}), with the user's proof of knowledge of the
 * token's signature where it was made at mint (a mode may embed it: DVID's {@code embed-zkp}).
 *
 * <p>Thread safety: immutable.
 *
 * @param proof the user's proof made at mint, or {@code null} (made later, or never)
 */
public record Grant(SpiffeId audience, String dpa, String dpr, Instant notAfter, OAuthProof proof) {

    /** Requires every part but the proof. */
    public Grant {
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(dpa, "dpa");
        Objects.requireNonNull(dpr, "dpr");
        Objects.requireNonNull(notAfter, "notAfter");
    }

    /** A grant without a proof. */
    public Grant(SpiffeId audience, String dpa, String dpr, Instant notAfter) {
        this(audience, dpa, dpr, notAfter, null);
    }

    /** A grant to {@code caller} for the user of {@code oauth}. */
    public static Grant of(VerifiedOAuthToken oauth, Caller caller) {
        return new Grant(caller.id(), oauth.issuer(), oauth.subject(), oauth.expiresAt());
    }

    /** This grant with the user's proof made at mint ({@code null}: none). */
    public Grant withProof(OAuthProof userProof) {
        return new Grant(audience, dpa, dpr, notAfter, userProof);
    }

    @Override
    public String toString() {
        return "Grant[" + audience + ", dpa=" + dpa + ", dpr=" + dpr + ", notAfter=" + notAfter + ", proof="
                + (proof != null) + "]";
    }
}
