package io.spiffeidt.core.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.Json;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * The claims of one ID-Mode layer (docs/formats/id-mode.md "Wire format", table "Claims"): {@code iss}
 * and {@code aud} (SPIFFE IDs), {@code iat}, {@code exp}, and, in the root layer only, {@code dpa}
 * and {@code dpr}. Unknown claims of a received payload are ignored.
 *
 * <p>{@link #toJson()} writes the payload exactly as the original does: compact, keys sorted
 * ({@code aud, dpa, dpr, exp, iat, iss}), Go string escaping, absent claims omitted.
 *
 * <p>Thread safety: immutable.
 *
 * @param issuer {@code iss}: the signing workload
 * @param audience {@code aud}: the next hop
 * @param issuedAt {@code iat} (whole seconds)
 * @param expiresAt {@code exp} (whole seconds), or {@code null} when absent (original tokens)
 * @param dpa delegated principal authority (OAuth {@code iss}), or {@code null}
 * @param dpr delegated principal (OAuth {@code sub}), or {@code null}
 */
public record IdModeClaims(
        SpiffeId issuer, SpiffeId audience, Instant issuedAt, Instant expiresAt, String dpa, String dpr) {

    /** Requires {@code iss}, {@code aud} and {@code iat}. */
    public IdModeClaims {
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(issuedAt, "issuedAt");
    }

    /** Claims of a hop layer (no delegation). */
    public static IdModeClaims hop(SpiffeId issuer, SpiffeId audience, Instant issuedAt, Instant expiresAt) {
        return new IdModeClaims(issuer, audience, issuedAt, expiresAt, null, null);
    }

    /** Whether this layer carries {@code dpa} or {@code dpr}. */
    public boolean carriesDelegation() {
        return dpa != null || dpr != null;
    }

    /** The payload JSON: compact, sorted keys, Go escaping (docs/formats/common.md "Encodings"). */
    public String toJson() {
        StringBuilder sb = new StringBuilder(192);
        sb.append("{\"aud\":");
        Json.writeString(sb, audience.toString());
        if (dpa != null) {
            sb.append(",\"dpa\":");
            Json.writeString(sb, dpa);
        }
        if (dpr != null) {
            sb.append(",\"dpr\":");
            Json.writeString(sb, dpr);
        }
        if (expiresAt != null) {
            sb.append(",\"exp\":").append(expiresAt.getEpochSecond());
        }
        sb.append(",\"iat\":").append(issuedAt.getEpochSecond());
        sb.append(",\"iss\":");
        Json.writeString(sb, issuer.toString());
        return sb.append('}').toString();
    }

    /**
     * Reads the typed claims of a parsed payload.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} for a missing or mistyped claim,
     *     {@link ErrorCode#LIMIT_EXCEEDED} for an over-long string claim
     */
    static IdModeClaims fromJson(Map<String, Object> json, Limits limits, int layer) {
        SpiffeId iss = spiffeId(json, "iss", limits, layer);
        SpiffeId aud = spiffeId(json, "aud", limits, layer);
        Instant iat = IdModeJson.optTime(json, "iat", layer);
        if (iat == null) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing claim iat");
        }
        Instant exp = IdModeJson.optTime(json, "exp", layer);
        String dpa = Claims.optString(json, "dpa", limits, layer);
        String dpr = Claims.optString(json, "dpr", limits, layer);
        return new IdModeClaims(iss, aud, iat, exp, dpa, dpr);
    }

    private static SpiffeId spiffeId(Map<String, Object> json, String name, Limits limits, int layer) {
        String text = Claims.string(json, name, limits, layer);
        try {
            return SpiffeId.parse(text);
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "claim " + name + " is not a SPIFFE ID");
        }
    }
}
