package io.spiffeidt.core.jws;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.security.PublicKey;
import java.util.Map;
import java.util.Objects;

/**
 * Finds the public key of a JWS signer by the header's {@code kid}, as the DVID and Txn-Token
 * verifiers do (docs/formats/dvid.md "Verification" step 2, docs/formats/txn-token.md
 * "Verification" step 3): the shared shape of {@link io.spiffeidt.core.dvid.DvidKeyResolver} and
 * {@link io.spiffeidt.core.txntoken.TxnTokenKeyResolver}.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface JwsKeyResolver {

    /**
     * The key named {@code kid} ({@code ""} when the header has none).
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} for an unknown {@code kid}; {@link
     *     ErrorCode#UPSTREAM_UNAVAILABLE} when the key set cannot be fetched
     */
    PublicKey resolve(String kid);

    /**
     * A resolver over a fixed {@code kid → key} map (copied).
     *
     * @param signs what the keys sign, for the message of an unknown {@code kid} ({@code DVID}:
     *     "unknown DVID key id")
     */
    static JwsKeyResolver of(Map<String, ? extends PublicKey> keys, String signs) {
        Map<String, PublicKey> copy = Map.copyOf(keys);
        String unknown = "unknown " + Objects.requireNonNull(signs, "signs") + " key id";
        return kid -> {
            PublicKey key = copy.get(kid);
            if (key == null) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, unknown);
            }
            return key;
        };
    }
}
