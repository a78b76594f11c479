package io.spiffeidt.core.dvid;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.LayerInfo;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.jws.CompactJws;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.PublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Verifies DVIDs locally (docs/formats/dvid.md "Verification"), failing closed:
 *
 * <ol>
 *   <li>size limit, then parse the compact JWS; the header {@code alg} must be the configured one
 *       (never {@code none}, never HMAC, never another), {@code crit} is refused, {@code typ} if
 *       present is {@code JWT};
 *   <li>the key is found by {@code kid} and must match the algorithm; the signature must verify;
 *   <li>{@code iss} is the pinned asserting workload, {@code sub} a SPIFFE ID of the trust domain,
 *       {@code iat} / {@code nbf} / {@code exp} within skew, and if {@code aud} is present it names
 *       the verifier;
 *   <li>an embedded {@code zkp} must verify, for an OAuth payload with {@code iss == dpa} and {@code
 *       sub == dpr}.
 * </ol>
 *
 * <p>Strict profile: {@code kid}, {@code jti} and {@code exp} are required. Original-compatible
 * profile: {@code kid} may be empty or absent, {@code jti} absent (the introspection key is then the
 * SHA-256 of the token), {@code exp} absent (then {@code iat} + original max age). Neither profile
 * accepts a bad signature, an unknown key or another issuer.
 *
 * <p>Errors: {@link ErrorCode#LIMIT_EXCEEDED}, {@link ErrorCode#MALFORMED}, {@link
 * ErrorCode#UNSUPPORTED} (algorithm, key type, {@code crit}), {@link ErrorCode#UNTRUSTED_KEY}
 * (unknown {@code kid}), {@link ErrorCode#BAD_SIGNATURE}, {@link ErrorCode#DELEGATION_INVALID}
 * (another issuer, a subject outside the trust domain, a proof for another user), {@link
 * ErrorCode#EXPIRED}, {@link ErrorCode#NOT_YET_VALID}, {@link ErrorCode#WRONG_AUDIENCE}, {@link
 * ErrorCode#BAD_PROOF}.
 *
 * <p>Thread safety: immutable and safe for concurrent use if the resolvers are.
 */
public final class DvidVerifier {

    private final DvidSettings settings;
    private final Provider provider;
    private final DvidKeyResolver keys;
    private final IdpKeyResolver idpKeys;

    /**
     * A verifier that refuses DVIDs with an embedded proof (it has no IdP key to check them with).
     *
     * @param settings the pinned asserting workload, trust domain, algorithm, profile, limits, time
     * @param provider the JCA provider that verifies signatures
     * @param keys finds the asserting workload's key by {@code kid}
     */
    public DvidVerifier(DvidSettings settings, Provider provider, DvidKeyResolver keys) {
        this(settings, provider, keys, null);
    }

    /**
     * A verifier that also checks embedded proofs.
     *
     * @param settings the pinned asserting workload, trust domain, algorithm, profile, limits, time
     * @param provider the JCA provider that verifies signatures
     * @param keys finds the asserting workload's key by {@code kid}
     * @param idpKeys finds the IdP's RSA key for an embedded proof, or {@code null} to refuse DVIDs
     *     that carry one ({@link ErrorCode#UNSUPPORTED})
     */
    public DvidVerifier(DvidSettings settings, Provider provider, DvidKeyResolver keys, IdpKeyResolver idpKeys) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.idpKeys = idpKeys;
    }

    /** The settings this verifier runs with. */
    public DvidSettings settings() {
        return settings;
    }

    /**
     * Verifies {@code token} for the workload {@code verifier}.
     *
     * @param token the compact JWS
     * @param verifier the SPIFFE ID of the workload consuming the DVID (checked against {@code aud}
     *     when present); may be {@code null} only for DVIDs without {@code aud}
     * @return the verified DVID, never {@code null}
     * @throws AssertionException with the code of the first check that fails
     */
    public VerifiedDvid verify(String token, SpiffeId verifier) {
        Limits limits = settings.limits();
        VerificationProfile profile = settings.profile();
        boolean strict = profile == VerificationProfile.STRICT;

        // 1. size, then syntax
        if (token == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing token");
        }
        limits.checkEncodedSize(token.length());
        CompactJws.Segments parts = CompactJws.split(token);
        if (!parts.complete()) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a compact JWS of three segments");
        }
        byte[] headerBytes = Codec.fromB64url(parts.header());
        byte[] payloadBytes = Codec.fromB64url(parts.payload());
        byte[] signature = Codec.fromB64url(parts.signature());
        Map<String, Object> header = Json.parseObject(Codec.utf8(headerBytes));

        Object algValue = header.get("alg");
        if (!(algValue instanceof String alg)) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing alg");
        }
        if (!alg.equals(settings.algorithm().name())) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "alg is not the configured DVID algorithm");
        }
        if (header.containsKey("crit")) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "critical header extensions are not supported");
        }
        if (header.containsKey("typ") && !"JWT".equals(header.get("typ"))) {
            throw new AssertionException(ErrorCode.MALFORMED, "typ is not JWT");
        }
        String kid = Claims.optString(header, "kid", limits, 0);
        if (kid == null) {
            kid = "";
        }
        if (strict && kid.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing kid");
        }

        // 2. key and signature
        PublicKey key = resolve(kid);
        DvidAlgorithm keyAlgorithm = JwsSignatures.algorithmOf(key);
        if (keyAlgorithm != settings.algorithm()) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "the key type does not match alg");
        }
        JwsSignatures.verify(
                keyAlgorithm, key, provider, parts.signingInput().getBytes(StandardCharsets.US_ASCII), signature, 0);

        // 3. claims
        Map<String, Object> claims = Json.parseObject(Codec.utf8(payloadBytes));
        String iss = Claims.string(claims, "iss", limits, 0);
        if (!SpiffeId.isValid(iss) || !SpiffeId.parse(iss).equals(settings.assertingWorkload())) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, 0, "issuer is not the pinned " + settings.assertingWorkload());
        }
        SpiffeId subject = SpiffeId.parse(Claims.string(claims, "sub", limits, 0));
        if (!subject.memberOf(settings.trustDomain())) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, 0, "subject " + subject + " is not in the trust domain");
        }
        String dpa = Claims.string(claims, "dpa", limits, 0);
        String dpr = Claims.string(claims, "dpr", limits, 0);
        Instant iat = Claims.optTime(claims, "iat", 0);
        if (iat == null) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "missing iat");
        }
        Claims.optTime(claims, "aat", 0);
        Instant nbf = Claims.optTime(claims, "nbf", 0);
        Instant exp = Claims.optTime(claims, "exp", 0);
        if (exp == null) {
            if (strict) {
                throw new AssertionException(ErrorCode.MALFORMED, 0, "missing exp");
            }
            exp = iat.plus(settings.timeRules().originalMaxAge());
        }
        settings.timeRules().check(0, iat, nbf, exp);
        List<String> audience = audience(claims, limits);
        if (audience != null && !audience.contains(verifier == null ? null : verifier.toString())) {
            throw new AssertionException(ErrorCode.WRONG_AUDIENCE, 0, "the audience does not name " + verifier);
        }
        String jti = Claims.optString(claims, "jti", limits, 0);
        if (jti == null || jti.isEmpty()) {
            if (strict) {
                throw new AssertionException(ErrorCode.MALFORMED, 0, "missing jti");
            }
            jti = Codec.b64url(sha256(token.getBytes(StandardCharsets.US_ASCII)));
        }

        // 4. embedded proof
        Optional<EmbeddedZkp> zkp = embeddedZkp(claims);
        if (zkp.isPresent()) {
            if (idpKeys == null) {
                throw new AssertionException(
                        ErrorCode.UNSUPPORTED, 0, "embedded proof present but no IdP keys configured");
            }
            zkp.get().verify(dpa, dpr, idpKeys, profile, limits, provider);
        }

        LayerInfo layer = new LayerInfo(iss, audience == null || audience.isEmpty() ? null : audience.get(0), iat, exp);
        VerifiedResult result =
                new VerifiedResult(Mode.DVID, List.of(layer), new Delegation(dpa, dpr, iss), token.length(), 1);
        return new VerifiedDvid(result, jti, subject, zkp);
    }

    private PublicKey resolve(String kid) {
        PublicKey key;
        try {
            key = keys.resolve(kid);
        } catch (AssertionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AssertionException(ErrorCode.UPSTREAM_UNAVAILABLE, "the DVID key set is unavailable", e);
        }
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, 0, "unknown DVID key id");
        }
        return key;
    }

    /** The {@code aud} values, or {@code null} when there is no {@code aud}. */
    private static List<String> audience(Map<String, Object> claims, Limits limits) {
        Object aud = claims.get("aud");
        if (aud == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (aud instanceof String s) {
            limits.checkClaim("aud", s);
            out.add(canonical(s));
        } else if (aud instanceof List<?> list) {
            if (list.size() > limits.maxDepth()) {
                throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, 0, "too many audiences");
            }
            for (Object o : list) {
                if (!(o instanceof String s)) {
                    throw new AssertionException(ErrorCode.MALFORMED, 0, "aud entry is not a string");
                }
                limits.checkClaim("aud", s);
                out.add(canonical(s));
            }
        } else {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "aud is neither a string nor an array");
        }
        return out;
    }

    /** A SPIFFE ID in its parsed form; any other audience value as it is (it never matches a verifier). */
    private static String canonical(String aud) {
        return SpiffeId.isValid(aud) ? SpiffeId.parse(aud).toString() : "\u0000" + aud;
    }

    private static Optional<EmbeddedZkp> embeddedZkp(Map<String, Object> claims) {
        Object zkp = claims.get("zkp");
        if (zkp == null) {
            return Optional.empty();
        }
        if (!(zkp instanceof Map<?, ?> m)
                || !(m.get("msg") instanceof String msg)
                || !(m.get("proof") instanceof String proof)) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "zkp is not {msg, proof}");
        }
        return Optional.of(new EmbeddedZkp(msg, proof));
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
