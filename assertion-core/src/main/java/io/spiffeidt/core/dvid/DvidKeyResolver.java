package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.security.PublicKey;
import java.util.Map;

/**
 * Finds the asserting workload's DVID public key by the JWS {@code kid} (docs/formats/dvid.md
 * "Verification" step 2). A service implements it over its cached copy of the asserting workload's
 * JWKS (refreshing on an unknown {@code kid} at most once per 30 s).
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface DvidKeyResolver {

    /**
     * The key named {@code kid} ({@code ""} when the header has none).
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} for an unknown {@code kid}; {@link
     *     ErrorCode#UPSTREAM_UNAVAILABLE} when the key set cannot be fetched
     */
    PublicKey resolve(String kid);

    /** A resolver over a fixed {@code kid → key} map (copied). */
    static DvidKeyResolver of(Map<String, ? extends PublicKey> keys) {
        Map<String, PublicKey> copy = Map.copyOf(keys);
        return kid -> {
            PublicKey key = copy.get(kid);
            if (key == null) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown DVID key id");
            }
            return key;
        };
    }

    /** A resolver over one key known under its RFC 7638 thumbprint. */
    static DvidKeyResolver of(PublicKey key) {
        return of(Map.of(DvidKeys.thumbprint(key), key));
    }
}
