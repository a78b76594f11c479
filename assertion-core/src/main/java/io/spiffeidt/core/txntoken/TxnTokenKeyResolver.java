package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.security.PublicKey;
import java.util.Map;

/**
 * Finds the Txn-Token Service's public key by the JWS {@code kid} (docs/formats/txn-token.md
 * "Verification" step 3). A workload implements it over its cached copy of the service's JWKS.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface TxnTokenKeyResolver {

    /**
     * The key named {@code kid}.
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} for an unknown {@code kid}; {@link
     *     ErrorCode#UPSTREAM_UNAVAILABLE} when the key set cannot be fetched
     */
    PublicKey resolve(String kid);

    /** A resolver over a fixed {@code kid → key} map (copied). */
    static TxnTokenKeyResolver of(Map<String, ? extends PublicKey> keys) {
        Map<String, PublicKey> copy = Map.copyOf(keys);
        return kid -> {
            PublicKey key = copy.get(kid);
            if (key == null) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown Txn-Token key id");
            }
            return key;
        };
    }

    /** A resolver over one key known under its RFC 7638 thumbprint. */
    static TxnTokenKeyResolver of(PublicKey key) {
        return of(Map.of(TxnTokenKeys.thumbprint(key), key));
    }
}
