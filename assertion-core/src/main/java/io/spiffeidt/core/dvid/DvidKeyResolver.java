package io.spiffeidt.core.dvid;

import io.spiffeidt.core.jws.JwsKeyResolver;
import java.security.PublicKey;
import java.util.Map;

/**
 * Finds the asserting workload's DVID public key by the JWS {@code kid} (docs/formats/dvid.md
 * "Verification" step 2). A service implements it over its cached copy of the asserting workload's
 * JWKS (refreshing on an unknown {@code kid} at most once per 30 s).
 *
 * <p>{@link #resolve} fails as {@link JwsKeyResolver#resolve} says.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface DvidKeyResolver extends JwsKeyResolver {

    /** A resolver over a fixed {@code kid → key} map (copied). */
    static DvidKeyResolver of(Map<String, ? extends PublicKey> keys) {
        return JwsKeyResolver.of(keys, "DVID")::resolve;
    }

    /** A resolver over one key known under its RFC 7638 thumbprint. */
    static DvidKeyResolver of(PublicKey key) {
        return of(Map.of(DvidKeys.thumbprint(key), key));
    }
}
