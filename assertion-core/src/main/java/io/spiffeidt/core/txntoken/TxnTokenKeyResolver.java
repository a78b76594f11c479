package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.jws.JwsKeyResolver;
import java.security.PublicKey;
import java.util.Map;

/**
 * Finds the Txn-Token Service's public key by the JWS {@code kid} (docs/formats/txn-token.md
 * "Verification" step 3). A workload implements it over its cached copy of the service's JWKS.
 *
 * <p>{@link #resolve} fails as {@link JwsKeyResolver#resolve} says.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface TxnTokenKeyResolver extends JwsKeyResolver {

    /** A resolver over a fixed {@code kid → key} map (copied). */
    static TxnTokenKeyResolver of(Map<String, ? extends PublicKey> keys) {
        return JwsKeyResolver.of(keys, "Txn-Token")::resolve;
    }

    /** A resolver over one key known under its RFC 7638 thumbprint. */
    static TxnTokenKeyResolver of(PublicKey key) {
        return of(Map.of(TxnTokenKeys.thumbprint(key), key));
    }
}
