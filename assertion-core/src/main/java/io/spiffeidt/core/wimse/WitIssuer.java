package io.spiffeidt.core.wimse;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Jwks;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Issues Workload Identity Tokens as the WIT issuer of a trust domain (docs/formats/wimse.md "WIT";
 * draft-ietf-wimse-workload-creds-02 §5.1): a compact JWS, ES256 under the issuer's P-256 key,
 * header {@code {"alg":"ES256","kid":<thumbprint>,"typ":"wit+jwt"}}, claims {@code cnf.jwk} (the
 * workload's P-256 public key with {@code "alg":"ES256"}), {@code exp}, {@code iat}, {@code iss}
 * (the issuer's SPIFFE ID), {@code jti} (128 random bits) and {@code sub} (the workload's SPIFFE
 * ID).
 *
 * <p>Thread safety: immutable and safe for concurrent use (a {@link java.security.Signature} is made
 * per call; the {@link SecureRandom} must be thread-safe, as the JDK's is).
 */
public final class WitIssuer extends Es256JwtSigner {

    /** The JWT {@code typ} of a WIT (draft-ietf-wimse-workload-creds-02 §5.1). */
    public static final String TYPE = "wit+jwt";

    private final String keyId;

    /**
     * An issuer for the issuer's key pair.
     *
     * @param privateKey the issuer's signing key (EC P-256)
     * @param publicKey its public key (for the {@code kid} and a self-check)
     * @param provider the JCA provider that signs
     * @param settings the trust domain, issuer, lifetime and limits
     * @param random the source of {@code jti}
     * @throws IllegalArgumentException when the key is not P-256 or the two keys are not a pair
     */
    public WitIssuer(
            PrivateKey privateKey,
            PublicKey publicKey,
            Provider provider,
            WimseSettings settings,
            SecureRandom random) {
        super(privateKey, publicKey, provider, settings, random, "WIT issuer");
        this.keyId = Jwks.thumbprint(publicKey);
    }

    /** The {@code kid} this issuer writes: the RFC 7638 thumbprint of its key. */
    public String keyId() {
        return keyId;
    }

    /** The settings this issuer runs with. */
    public WimseSettings settings() {
        return settings;
    }

    /**
     * Issues a WIT for {@code workload} whose {@code cnf} key is {@code confirmationKey}: {@code iat}
     * = now, {@code exp} = now + the WIT lifetime.
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} when the workload is not in the
     *     trust domain, {@link ErrorCode#UNSUPPORTED} when the key is not EC P-256, {@link
     *     ErrorCode#LIMIT_EXCEEDED} when the SPIFFE ID or the token is over its limit
     */
    public Wit issue(SpiffeId workload, PublicKey confirmationKey) {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(confirmationKey, "confirmationKey");
        if (!workload.memberOf(settings.trustDomain())) {
            throw new AssertionException(
                    ErrorCode.UNTRUSTED_KEY, workload + " is not in the trust domain " + settings.trustDomain());
        }
        if (!(confirmationKey instanceof ECPublicKey ec) || !Es256.isP256(ec)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "the workload key is not EC P-256");
        }
        settings.limits().checkClaim("sub", workload.toString());
        Instant now = settings.timeRules().now();
        Instant exp = now.plusSeconds(settings.witLifetime().toSeconds());
        String jti = newJti();

        Map<String, Object> header = new TreeMap<>();
        header.put("alg", "ES256");
        header.put("kid", keyId);
        header.put("typ", TYPE);

        Map<String, Object> jwk = new TreeMap<>(new ECKey.Builder(Curve.P_256, ec)
                .algorithm(JWSAlgorithm.ES256)
                .build()
                .toJSONObject());
        Map<String, Object> claims = new TreeMap<>();
        claims.put("cnf", Map.of("jwk", jwk));
        claims.put("exp", exp.getEpochSecond());
        claims.put("iat", now.getEpochSecond());
        claims.put("iss", settings.witIssuer().toString());
        claims.put("jti", jti);
        claims.put("sub", workload.toString());

        String token = signCompact(header, claims, "WIT");
        return new Wit(token, keyId, workload, settings.witIssuer().toString(), jti, ec, now, exp);
    }
}
