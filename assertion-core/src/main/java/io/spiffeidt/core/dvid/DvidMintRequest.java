package io.spiffeidt.core.dvid;

import io.spiffeidt.core.SpiffeId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What to mint a DVID for (docs/formats/dvid.md "Document"), after the asserting workload verified the
 * user's OAuth token.
 *
 * <p>Thread safety: immutable.
 *
 * @param subject the SPIFFE ID of the mTLS peer that called mint (never taken from a request body)
 * @param oauthIssuer the OAuth token's {@code iss}, becomes {@code dpa}
 * @param oauthSubject the OAuth token's {@code sub}, becomes {@code dpr}
 * @param oauthExpiresAt the OAuth token's {@code exp}; the DVID never outlives it
 * @param audience the SPIFFE IDs allowed to consume the DVID; empty for no {@code aud}
 * @param zkp the proof to embed as the {@code zkp} claim, or {@code null}
 * @param omitJti original shape: no {@code jti}
 * @param kid the header {@code kid} to write instead of the key's thumbprint (original shape, e.g.
 *     {@code ""}), or {@code null} for the thumbprint
 */
public record DvidMintRequest(
        SpiffeId subject,
        String oauthIssuer,
        String oauthSubject,
        Instant oauthExpiresAt,
        List<SpiffeId> audience,
        EmbeddedZkp zkp,
        boolean omitJti,
        String kid) {

    /** Requires the subject, the OAuth claims and expiry; copies the audience. */
    public DvidMintRequest {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(oauthIssuer, "oauthIssuer");
        Objects.requireNonNull(oauthSubject, "oauthSubject");
        Objects.requireNonNull(oauthExpiresAt, "oauthExpiresAt");
        audience = audience == null ? List.of() : List.copyOf(audience);
    }

    /** The default shape: {@code jti}, thumbprint {@code kid}, no audience, no embedded proof. */
    public static DvidMintRequest of(
            SpiffeId subject, String oauthIssuer, String oauthSubject, Instant oauthExpiresAt) {
        return new DvidMintRequest(subject, oauthIssuer, oauthSubject, oauthExpiresAt, List.of(), null, false, null);
    }

    /** A copy with the given audience. */
    public DvidMintRequest withAudience(List<SpiffeId> newAudience) {
        return new DvidMintRequest(subject, oauthIssuer, oauthSubject, oauthExpiresAt, newAudience, zkp, omitJti, kid);
    }

    /** A copy that embeds {@code newZkp}. */
    public DvidMintRequest withZkp(EmbeddedZkp newZkp) {
        return new DvidMintRequest(subject, oauthIssuer, oauthSubject, oauthExpiresAt, audience, newZkp, omitJti, kid);
    }

    /** A copy in the original's shape: no {@code jti}, header {@code kid} = {@code originalKid}. */
    public DvidMintRequest withOriginalShape(String originalKid) {
        Objects.requireNonNull(originalKid, "originalKid");
        return new DvidMintRequest(
                subject, oauthIssuer, oauthSubject, oauthExpiresAt, audience, zkp, true, originalKid);
    }
}
