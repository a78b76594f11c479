package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Jwks;
import java.security.PublicKey;
import java.util.Map;

/**
 * Finds a WIT issuer's public key of the verifier's trust domain by the JWS {@code kid}
 * (docs/formats/wimse.md "Verifying a WIT" step 3; draft-ietf-wimse-workload-creds-02 §3: the trust
 * anchors are configured per trust domain out of band, never looked up from the token). A workload
 * implements it over its cached copy of the issuer's JWKS.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface WitKeyResolver {

    /**
     * The key named {@code kid}.
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} for an unknown {@code kid}; {@link
     *     ErrorCode#UPSTREAM_UNAVAILABLE} when the key set cannot be fetched
     */
    PublicKey resolve(String kid);

    /** A resolver over a fixed {@code kid → key} map (copied). */
    static WitKeyResolver of(Map<String, ? extends PublicKey> keys) {
        Map<String, PublicKey> copy = Map.copyOf(keys);
        return kid -> {
            PublicKey key = copy.get(kid);
            if (key == null) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown WIT issuer key id");
            }
            return key;
        };
    }

    /** A resolver over one key known under its RFC 7638 thumbprint (the {@code kid} {@link WitIssuer} writes). */
    static WitKeyResolver of(PublicKey key) {
        return of(Map.of(Jwks.thumbprint(key), key));
    }
}
