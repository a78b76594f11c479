package io.spiffeidt.core.wimse;

import java.time.Instant;
import java.util.Objects;

/**
 * A Workload Proof Token as signed (docs/formats/wimse.md "WPT"): the compact JWS and the request it
 * is for.
 *
 * <p>Thread safety: immutable.
 *
 * @param token the compact JWS (send it with {@link WimseHeaders#authorization(String)})
 * @param jti its unique identifier
 * @param audience the target URI without query and fragment ({@code aud})
 * @param method the HTTP method ({@code htm})
 * @param expiresAt {@code exp}
 */
public record Wpt(String token, String jti, String audience, String method, Instant expiresAt) {

    /** Requires every part. */
    public Wpt {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(jti, "jti");
        Objects.requireNonNull(audience, "audience");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Names the request, never the token. */
    @Override
    public String toString() {
        return "Wpt[" + method + " " + audience + ", exp=" + expiresAt + "]";
    }
}
