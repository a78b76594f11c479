package io.spiffeidt.devstack.ca;

import io.spiffeidt.core.SpiffeId;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A JWT-SVID that {@link DevCa#validateJwtSvid(String, String)} accepted.
 *
 * <p>Thread safety: immutable.
 *
 * @param id the SPIFFE ID in {@code sub}
 * @param audience the {@code aud} values
 * @param expiresAt the {@code exp} time
 * @param claims every claim as JSON values (strings, numbers, booleans, lists, maps; times as
 *     seconds since the epoch)
 */
public record VerifiedJwtSvid(SpiffeId id, List<String> audience, Instant expiresAt, Map<String, Object> claims) {

    /** Copies the audience and the claims. */
    public VerifiedJwtSvid {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(expiresAt, "expiresAt");
        audience = List.copyOf(audience);
        claims = Collections.unmodifiableMap(new LinkedHashMap<>(claims));
    }
}
