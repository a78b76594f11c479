package io.spiffeidt.core.zkp;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.security.interfaces.RSAPublicKey;
import java.util.Map;
import java.util.Objects;

/**
 * Finds the OAuth IdP's RSA key that signed the user's token, by issuer and the OAuth header's
 * {@code kid} (docs/formats/dvid.md "The zero-knowledge proof": public input {@code (n, e)} from the IdP's
 * JWKS). Needed to verify a proof embedded in a DVID (verification step 4). The issuer is the DVID's
 * {@code dpa}, already checked to equal the OAuth payload's {@code iss}, so a key is only ever looked
 * up at the IdP the DVID names.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface IdpKeyResolver {

    /**
     * The RSA key of IdP {@code issuer} named {@code kid} ({@code ""} when the OAuth header has none).
     *
     * @throws AssertionException {@link ErrorCode#UNKNOWN_ISSUER} for an issuer not on the
     *     allow-list, {@link ErrorCode#UNTRUSTED_KEY} for an unknown {@code kid}, {@link
     *     ErrorCode#UPSTREAM_UNAVAILABLE} when the IdP's keys cannot be fetched
     */
    RSAPublicKey resolve(String issuer, String kid);

    /** A resolver for one issuer with a fixed {@code kid → key} map (copied). */
    static IdpKeyResolver of(String issuer, Map<String, RSAPublicKey> keys) {
        Objects.requireNonNull(issuer, "issuer");
        Map<String, RSAPublicKey> copy = Map.copyOf(keys);
        return (iss, kid) -> {
            if (!issuer.equals(iss)) {
                throw new AssertionException(ErrorCode.UNKNOWN_ISSUER, "OAuth issuer not on the allow-list");
            }
            RSAPublicKey key = copy.get(kid);
            if (key == null) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown IdP key id");
            }
            return key;
        };
    }
}
