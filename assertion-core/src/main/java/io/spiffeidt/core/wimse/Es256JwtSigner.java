package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Objects;

/**
 * What the WIT issuer and the WPT signer share: a P-256 key pair checked at construction, the
 * source of {@code jti}, and the signing of a compact ES256 JWS within the token limit.
 *
 * <p>Thread safety: immutable; a {@link java.security.Signature} is made per call.
 */
abstract class Es256JwtSigner {

    private static final int JTI_BYTES = 16;

    private final PrivateKey privateKey;
    private final Provider provider;
    private final SecureRandom random;

    /** The trust domain, issuer, lifetimes, limits and clock. */
    protected final WimseSettings settings;

    /**
     * @param whose whose key it is, for the message of a refused pair ("WIT issuer", "workload")
     * @throws IllegalArgumentException when the key is not P-256 or the two keys are not a pair
     */
    Es256JwtSigner(
            PrivateKey privateKey,
            PublicKey publicKey,
            Provider provider,
            WimseSettings settings,
            SecureRandom random,
            String whose) {
        Objects.requireNonNull(privateKey, "privateKey");
        Objects.requireNonNull(publicKey, "publicKey");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        this.privateKey = Es256.signingPair(privateKey, publicKey, provider, whose);
    }

    /** A new {@code jti}: 128 random bits, base64url. */
    final String newJti() {
        byte[] jti = new byte[JTI_BYTES];
        random.nextBytes(jti);
        return Codec.b64url(jti);
    }

    /**
     * The compact JWS of {@code header} and {@code claims}, ES256 under this signer's key.
     *
     * @param what the token's name, for the message of one over the limit ("WIT", "WPT")
     * @throws AssertionException {@link ErrorCode#LIMIT_EXCEEDED} when it is longer than the limit
     */
    final String signCompact(Map<String, Object> header, Map<String, Object> claims, String what) {
        String signingInput = Codec.b64url(Json.write(header)) + "." + Codec.b64url(Json.write(claims));
        byte[] der = Es256.sign(privateKey, signingInput.getBytes(StandardCharsets.US_ASCII), provider);
        String token = signingInput + "." + Codec.b64url(Es256.derToConcat(der));
        if (token.length() > settings.maxTokenLength()) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED, what + " of " + token.length() + " characters over the limit");
        }
        return token;
    }
}
