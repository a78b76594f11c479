package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.ProviderKeys;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Mints DVIDs (docs/formats/dvid.md "Document"): a compact JWS with sorted header keys {@code
 * {"alg","kid","typ"}} and sorted payload claims, written as compact Go-style JSON, so that the
 * original's tokens are reproduced byte for byte from the same key, clock and claims.
 *
 * <p>{@code iss} is the asserting workload of the settings; {@code iat = aat} = now; {@code exp =
 * min(iat + lifetime, OAuth exp)}; {@code jti} = 128 random bits, base64url; {@code kid} = the RFC
 * 7638 thumbprint of the key. A request for the original shape drops {@code jti} and writes a given
 * {@code kid}.
 *
 * <p>Thread safety: immutable and safe for concurrent use (a {@link java.security.Signature} is
 * made per call; the {@link SecureRandom} must be thread-safe, as the JDK's is).
 */
public final class DvidMinter {

    private static final int JTI_BYTES = 16;

    private final PrivateKey privateKey;
    private final Provider provider;
    private final DvidSettings settings;
    private final SecureRandom random;
    private final DvidAlgorithm algorithm;
    private final String thumbprint;

    /**
     * A minter for the DVID key pair.
     *
     * @param privateKey the DVID signing key (RSA 2048+ or EC P-256)
     * @param publicKey its public key (for the {@code kid} and a self-check)
     * @param provider the JCA provider that signs
     * @param settings the asserting workload, trust domain, algorithm, limits and time rules
     * @param random the source of {@code jti}
     * @throws IllegalArgumentException when the key does not match the settings' algorithm or the
     *     two keys are not a pair
     */
    public DvidMinter(
            PrivateKey privateKey, PublicKey publicKey, Provider provider, DvidSettings settings, SecureRandom random) {
        this.privateKey = ProviderKeys.forSigning(Objects.requireNonNull(privateKey, "privateKey"), provider);
        Objects.requireNonNull(publicKey, "publicKey");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = Objects.requireNonNull(random, "random");
        DvidAlgorithm keyAlgorithm;
        try {
            keyAlgorithm = JwsSignatures.algorithmOf(publicKey);
        } catch (AssertionException e) {
            throw new IllegalArgumentException("unusable DVID key: " + e.getMessage(), e);
        }
        if (keyAlgorithm != settings.algorithm()) {
            throw new IllegalArgumentException(
                    "the DVID key is for " + keyAlgorithm + " but the settings say " + settings.algorithm());
        }
        this.algorithm = keyAlgorithm;
        this.thumbprint = DvidKeys.thumbprint(publicKey);
        byte[] probe = "dvid-key-pair-check".getBytes(StandardCharsets.US_ASCII);
        byte[] sig = JwsSignatures.sign(algorithm, privateKey, provider, probe);
        try {
            JwsSignatures.verify(algorithm, publicKey, provider, probe, sig, -1);
        } catch (AssertionException e) {
            throw new IllegalArgumentException("the DVID private and public keys are not a pair", e);
        }
    }

    /** The {@code kid} this minter writes by default: the RFC 7638 thumbprint of its key. */
    public String keyId() {
        return thumbprint;
    }

    /** The JWS algorithm this minter signs with. */
    public DvidAlgorithm algorithm() {
        return algorithm;
    }

    /**
     * Mints a DVID for {@code request}.
     *
     * @throws AssertionException {@link ErrorCode#DELEGATION_INVALID} for a subject outside the trust
     *     domain, {@link ErrorCode#MALFORMED} for an empty {@code dpa} / {@code dpr}, {@link
     *     ErrorCode#LIMIT_EXCEEDED} for a claim or the token over its limit, {@link
     *     ErrorCode#EXPIRED} when the OAuth token has already expired
     */
    public Dvid mint(DvidMintRequest request) {
        Objects.requireNonNull(request, "request");
        Limits limits = settings.limits();
        if (!request.subject().memberOf(settings.trustDomain())) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, "subject " + request.subject() + " is not in the trust domain");
        }
        String dpa = request.oauthIssuer();
        String dpr = request.oauthSubject();
        if (dpa.isEmpty() || dpr.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "empty OAuth issuer or subject");
        }
        limits.checkClaim("dpa", dpa);
        limits.checkClaim("dpr", dpr);
        Instant iat = settings.timeRules().now();
        Instant oauthExp = Instant.ofEpochSecond(request.oauthExpiresAt().getEpochSecond());
        if (!oauthExp.isAfter(iat)) {
            throw new AssertionException(ErrorCode.EXPIRED, "the OAuth token has expired");
        }
        Instant lifetimeEnd = iat.plusSeconds(settings.timeRules().lifetime().toSeconds());
        Instant exp = lifetimeEnd.isBefore(oauthExp) ? lifetimeEnd : oauthExp;
        String jti = request.omitJti() ? null : Codec.b64url(randomBytes());

        Map<String, Object> header = new TreeMap<>();
        header.put("alg", algorithm.name());
        header.put("kid", request.kid() == null ? thumbprint : request.kid());
        header.put("typ", "JWT");

        Map<String, Object> claims = new TreeMap<>();
        claims.put("aat", iat.getEpochSecond());
        List<SpiffeId> audience = request.audience();
        if (audience.size() == 1) {
            claims.put("aud", audience.get(0).toString());
        } else if (audience.size() > 1) {
            List<String> aud = new ArrayList<>(audience.size());
            audience.forEach(a -> aud.add(a.toString()));
            claims.put("aud", aud);
        }
        claims.put("dpa", dpa);
        claims.put("dpr", dpr);
        claims.put("exp", exp.getEpochSecond());
        claims.put("iat", iat.getEpochSecond());
        claims.put("iss", settings.assertingWorkload().toString());
        if (jti != null) {
            claims.put("jti", jti);
        }
        claims.put("sub", request.subject().toString());
        if (request.zkp() != null) {
            Map<String, Object> zkp = new TreeMap<>();
            zkp.put("msg", request.zkp().msg());
            zkp.put("proof", request.zkp().proof());
            claims.put("zkp", zkp);
        }

        String signingInput = Codec.b64url(Json.write(header)) + "." + Codec.b64url(Json.write(claims));
        byte[] signature =
                JwsSignatures.sign(algorithm, privateKey, provider, signingInput.getBytes(StandardCharsets.US_ASCII));
        String token = signingInput + "." + Codec.b64url(signature);
        limits.checkEncodedSize(token.length());
        return new Dvid(token, jti, request.subject(), dpa, dpr, iat, exp);
    }

    private byte[] randomBytes() {
        byte[] b = new byte[JTI_BYTES];
        random.nextBytes(b);
        return b;
    }
}
