package io.spiffeidt.core.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.jws.CompactJws;
import java.nio.charset.StandardCharsets;
import java.security.Provider;
import java.security.PublicKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies Txn-Tokens (docs/formats/txn-token.md "Verification", draft §12.2), failing closed, in
 * this order:
 *
 * <ol>
 *   <li>size ({@link ErrorCode#LIMIT_EXCEEDED} over {@link TxnTokenSettings#maxTokenLength()}), then
 *       three base64url segments and a JSON header ({@link ErrorCode#MALFORMED});
 *   <li>{@code typ} is exactly {@code txntoken+jwt} (draft §9.1; another type, a DVID's {@code JWT}
 *       or none, is {@link ErrorCode#UNSUPPORTED}); {@code alg} is {@code ES256} and there is no
 *       {@code crit} ({@link ErrorCode#UNSUPPORTED});
 *   <li>the {@code kid} names a key of the service's JWKS ({@link ErrorCode#MALFORMED} when absent,
 *       {@link ErrorCode#UNTRUSTED_KEY} when unknown), and the signature verifies under it ({@link
 *       ErrorCode#BAD_SIGNATURE});
 *   <li>{@code aud} is the trust domain ({@link ErrorCode#WRONG_AUDIENCE}); {@code iat} and {@code
 *       exp} are present ({@link ErrorCode#MALFORMED}) and now is within them with skew ({@link
 *       ErrorCode#EXPIRED}, {@link ErrorCode#NOT_YET_VALID}); {@code iss}, when present, is the
 *       service ({@link ErrorCode#UNTRUSTED_KEY});
 *   <li>{@code txn}, {@code sub}, {@code scope}, {@code req_wl} and {@code tctx.dpa} are non-empty
 *       strings, {@code rctx.req_wls} when present a list of strings ending with {@code req_wl}
 *       ({@link ErrorCode#MALFORMED}; over the limits {@link ErrorCode#LIMIT_EXCEEDED}).
 * </ol>
 *
 * <p>Thread safety: immutable and safe for concurrent use if the key resolver is.
 */
public final class TxnTokenVerifier {

    private final TxnTokenSettings settings;
    private final Provider provider;
    private final TxnTokenKeyResolver keys;

    /**
     * @param settings the trust domain, the service, limits and time
     * @param provider the JCA provider that verifies signatures
     * @param keys finds the service's key by {@code kid}
     */
    public TxnTokenVerifier(TxnTokenSettings settings, Provider provider, TxnTokenKeyResolver keys) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    /** The settings this verifier runs with. */
    public TxnTokenSettings settings() {
        return settings;
    }

    /**
     * Verifies {@code token}.
     *
     * @return the verified token, never {@code null}
     * @throws AssertionException with the code of the first check that fails
     */
    public TxnToken verify(String token) {
        Limits limits = settings.limits();
        if (token == null || token.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing Txn-Token");
        }
        if (token.length() > settings.maxTokenLength()) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "Txn-Token of " + token.length() + " characters over the limit " + settings.maxTokenLength());
        }
        CompactJws.Segments parts = CompactJws.split(token);
        if (!parts.complete()) {
            throw new AssertionException(ErrorCode.MALFORMED, "not a compact JWS of three segments");
        }
        Map<String, Object> header = Json.parseObject(Codec.utf8(Codec.fromB64url(parts.header())));

        // 2. explicit type, algorithm
        if (!TxnTokenMinter.TYPE.equals(header.get("typ"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "typ is not " + TxnTokenMinter.TYPE);
        }
        if (!"ES256".equals(header.get("alg"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "alg is not ES256");
        }
        if (header.containsKey("crit")) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "critical header extensions are not supported");
        }

        // 3. key and signature
        String kid = Claims.optString(header, "kid", limits, 0);
        if (kid == null || kid.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing kid");
        }
        PublicKey key = resolve(kid);
        Es256.requireP256(key, 0);
        byte[] der = Es256.concatToDer(Codec.fromB64url(parts.signature()), 0);
        byte[] input = parts.signingInput().getBytes(StandardCharsets.US_ASCII);
        Es256.requireValid(key, input, der, provider, 0);

        // 4. audience, time, issuer
        Map<String, Object> claims = Json.parseObject(Codec.utf8(Codec.fromB64url(parts.payload())));
        String audience = audience(claims.get("aud"), limits);
        Instant iat = Claims.optTime(claims, "iat", 0);
        Instant exp = Claims.optTime(claims, "exp", 0);
        if (iat == null || exp == null) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "missing iat or exp");
        }
        settings.timeRules().check(0, iat, Claims.optTime(claims, "nbf", 0), exp);
        String iss = Claims.optString(claims, "iss", limits, 0);
        if (iss != null && !(SpiffeId.isValid(iss) && SpiffeId.parse(iss).equals(settings.service()))) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, 0, "iss is not the Txn-Token Service");
        }

        // 5. the transaction's claims
        String txn = Claims.string(claims, "txn", limits, 0);
        String sub = Claims.string(claims, "sub", limits, 0);
        String scope = Claims.string(claims, "scope", limits, 0);
        String reqWl = Claims.string(claims, "req_wl", limits, 0);
        String dpa = Claims.string(object(claims, "tctx"), "dpa", limits, 0);
        List<String> chain = chain(claims, reqWl, limits);
        return new TxnToken(token, kid, txn, sub, dpa, scope, reqWl, chain, iss, audience, iat, exp);
    }

    private PublicKey resolve(String kid) {
        PublicKey key;
        try {
            key = keys.resolve(kid);
        } catch (AssertionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE, "the Txn-Token Service's keys are unavailable", e);
        }
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, 0, "unknown Txn-Token key id");
        }
        return key;
    }

    /** {@code aud}: the trust domain, as a string or the one member of an array. */
    private String audience(Object aud, Limits limits) {
        Object value = aud;
        if (aud instanceof List<?> list) {
            if (list.size() != 1) {
                throw new AssertionException(ErrorCode.WRONG_AUDIENCE, 0, "aud must name exactly the trust domain");
            }
            value = list.get(0);
        }
        if (value == null) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "missing aud");
        }
        if (!(value instanceof String s)) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "aud is not a string");
        }
        limits.checkClaim("aud", s);
        if (!s.equals(settings.trustDomain())) {
            throw new AssertionException(
                    ErrorCode.WRONG_AUDIENCE, 0, "aud is not the trust domain " + settings.trustDomain());
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> claims, String name) {
        Object v = claims.get(name);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "claim " + name + " is not an object");
        }
        return (Map<String, Object>) m;
    }

    /** {@code rctx.req_wls}, or {@code [req_wl]} without one; its last entry must be {@code req_wl}. */
    private static List<String> chain(Map<String, Object> claims, String reqWl, Limits limits) {
        Object v = object(claims, "rctx").get("req_wls");
        if (v == null) {
            return List.of(reqWl);
        }
        if (!(v instanceof List<?> list) || list.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "rctx.req_wls is not a list of workloads");
        }
        limits.checkDepth(list.size());
        List<String> out = new ArrayList<>(list.size());
        for (Object o : list) {
            if (!(o instanceof String s) || s.isEmpty()) {
                throw new AssertionException(ErrorCode.MALFORMED, 0, "rctx.req_wls entry is not a string");
            }
            limits.checkClaim("rctx.req_wls", s);
            out.add(s);
        }
        if (!out.get(out.size() - 1).equals(reqWl)) {
            throw new AssertionException(ErrorCode.MALFORMED, 0, "rctx.req_wls does not end with req_wl");
        }
        return out;
    }
}
