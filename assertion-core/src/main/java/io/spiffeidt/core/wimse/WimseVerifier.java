package io.spiffeidt.core.wimse;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.internal.Claims;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.internal.Jwks;
import io.spiffeidt.core.jws.CompactJws;
import java.nio.charset.StandardCharsets;
import java.security.Provider;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Verifies a request's WIT and WPT (docs/formats/wimse.md "Verifying a WIT", "Verifying a WPT"),
 * failing closed with the code of the first check that fails. Errors about the WIT carry layer 0,
 * errors about the WPT layer 1.
 *
 * <p>The WIT (draft-ietf-wimse-workload-creds-02 §3, §5.1), in this order:
 *
 * <ol>
 *   <li>present ({@link ErrorCode#MALFORMED}), not longer than {@link WimseSettings#maxTokenLength()}
 *       ({@link ErrorCode#LIMIT_EXCEEDED}), three base64url segments and a JSON header ({@link
 *       ErrorCode#MALFORMED}; an empty signature segment is refused by step 3, after the header);
 *   <li>{@code typ} is {@code wit+jwt}, {@code alg} is {@code ES256} ({@code none} and every other
 *       algorithm refused), no {@code crit} ({@link ErrorCode#UNSUPPORTED});
 *   <li>{@code kid} present ({@link ErrorCode#MALFORMED}) and a key of the trust domain's WIT issuer
 *       ({@link ErrorCode#UNTRUSTED_KEY}); the signature verifies under it ({@link
 *       ErrorCode#BAD_SIGNATURE});
 *   <li>{@code sub} is a SPIFFE ID ({@link ErrorCode#MALFORMED}) in the trust domain ({@link
 *       ErrorCode#UNTRUSTED_KEY}); {@code exp} present ({@link ErrorCode#MALFORMED}) and now within
 *       {@code iat}/{@code nbf} and {@code exp} with skew ({@link ErrorCode#EXPIRED}, {@link
 *       ErrorCode#NOT_YET_VALID}); {@code iss}, when present, is the WIT issuer ({@link
 *       ErrorCode#UNTRUSTED_KEY});
 *   <li>{@code cnf.jwk} present ({@link ErrorCode#MALFORMED}), with {@code alg} ({@link
 *       ErrorCode#MALFORMED}) {@code ES256} and an EC P-256 public key ({@link ErrorCode#UNSUPPORTED};
 *       private members or bad coordinates {@link ErrorCode#MALFORMED}).
 * </ol>
 *
 * <p>Then the WPT (draft-ietf-wimse-wpt-02 §2):
 *
 * <ol>
 *   <li>present, size, shape as for the WIT;
 *   <li>{@code typ} is {@code wpt+jwt}, {@code alg} is the {@code alg} of the WIT's {@code cnf.jwk},
 *       no {@code crit} ({@link ErrorCode#UNSUPPORTED});
 *   <li>the signature verifies under the WIT's {@code cnf} key ({@link ErrorCode#BAD_SIGNATURE});
 *   <li>{@code exp} present ({@link ErrorCode#MALFORMED}), not passed with skew ({@link
 *       ErrorCode#EXPIRED}) and not further than the WPT lifetime plus skew ahead ({@link
 *       ErrorCode#LIMIT_EXCEEDED}); {@code iat}, when present, not in the future with skew ({@link
 *       ErrorCode#NOT_YET_VALID});
 *   <li>{@code aud} is the request's target URI without query and fragment, and {@code htm} its
 *       method ({@link ErrorCode#WRONG_AUDIENCE}; missing: {@link ErrorCode#MALFORMED});
 *   <li>{@code wth} is the hash of the WIT presented ({@link ErrorCode#BROKEN_LINK}; missing: {@link
 *       ErrorCode#MALFORMED});
 *   <li>{@code tth} is the hash of the Txn-Token presented, present exactly when the request carries
 *       one ({@link ErrorCode#DELEGATION_INVALID});
 *   <li>{@code oth} names no token ({@link ErrorCode#UNSUPPORTED}: this verifier understands none, and
 *       the draft requires refusing entries not understood);
 *   <li>{@code jti} present ({@link ErrorCode#MALFORMED}) and not used before by this sender ({@link
 *       ErrorCode#REPLAYED}, through the {@link JtiReplayCache}; a full cache {@link
 *       ErrorCode#LIMIT_EXCEEDED}).
 * </ol>
 *
 * <p>Thread safety: immutable and safe for concurrent use if the key resolver and the replay cache
 * are.
 */
public final class WimseVerifier {

    private static final int WIT = 0;
    private static final int WPT = 1;
    private static final String ES256 = "ES256";

    private final WimseSettings settings;
    private final Provider provider;
    private final WitKeyResolver keys;
    private final JtiReplayCache replay;

    /**
     * @param settings the trust domain, the WIT issuer, limits, time and the WPT lifetime
     * @param provider the JCA provider that verifies signatures and builds the {@code cnf} keys
     * @param keys finds the WIT issuer's key by {@code kid}
     * @param replay the single-use check of WPT {@code jti}s
     */
    public WimseVerifier(WimseSettings settings, Provider provider, WitKeyResolver keys, JtiReplayCache replay) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.replay = Objects.requireNonNull(replay, "replay");
    }

    /** The settings this verifier runs with. */
    public WimseSettings settings() {
        return settings;
    }

    /**
     * Verifies a request's WIT, then its WPT, and spends the WPT's {@code jti}.
     *
     * @return the verified request, never {@code null}
     * @throws AssertionException with the code of the first check that fails
     */
    public VerifiedWimse verify(WimseRequest request) {
        Objects.requireNonNull(request, "request");
        Wit wit = verifyWit(request.wit());
        Limits limits = settings.limits();
        CompactJws.Segments parts = segments(request.wpt(), "WPT", WPT);
        Map<String, Object> header = Json.parseObject(Codec.utf8(Codec.fromB64url(parts.header())));

        // 2. type and algorithm: the WIT's cnf.jwk.alg, which this verifier only accepts as ES256
        requireType(header, WptSigner.TYPE, WPT);
        if (!ES256.equals(header.get("alg"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, WPT, "WPT alg is not the cnf key's ES256");
        }
        requireNoCrit(header, WPT);

        // 3. proof of possession of the WIT's key
        verifySignature(wit.confirmationKey(), parts, WPT);

        // 4. freshness
        Map<String, Object> claims = Json.parseObject(Codec.utf8(Codec.fromB64url(parts.payload())));
        Instant exp = Claims.optTime(claims, "exp", WPT);
        if (exp == null) {
            throw new AssertionException(ErrorCode.MALFORMED, WPT, "WPT without exp");
        }
        Instant now = settings.timeRules().clock().instant();
        Duration skew = settings.timeRules().skew();
        if (now.isAfter(exp.plus(skew))) {
            throw new AssertionException(ErrorCode.EXPIRED, WPT, "WPT expired");
        }
        if (exp.isAfter(now.plus(settings.wptLifetime()).plus(skew))) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED, WPT, "WPT exp further ahead than " + settings.wptLifetime());
        }
        Instant iat = Claims.optTime(claims, "iat", WPT);
        if (iat != null && iat.isAfter(now.plus(skew))) {
            throw new AssertionException(ErrorCode.NOT_YET_VALID, WPT, "WPT issued in the future");
        }

        // 5. bound to this request
        String audience = WptSigner.audience(request.target());
        if (!audience.equals(audience(claims.get("aud"), limits))) {
            throw new AssertionException(ErrorCode.WRONG_AUDIENCE, WPT, "WPT aud is not this request's target URI");
        }
        String htm = Claims.string(claims, "htm", limits, WPT);
        if (!htm.equals(request.method())) {
            throw new AssertionException(ErrorCode.WRONG_AUDIENCE, WPT, "WPT htm is not this request's method");
        }

        // 6. bound to the WIT presented
        String wth = Claims.string(claims, "wth", limits, WPT);
        if (!TokenHash.matches(wth, wit.token())) {
            throw new AssertionException(ErrorCode.BROKEN_LINK, WPT, "WPT wth is not the hash of the WIT presented");
        }

        // 7. bound to the Txn-Token presented, if any
        String tth = Claims.optString(claims, "tth", limits, WPT);
        boolean txnTokenBound = request.txnToken() != null;
        if (txnTokenBound) {
            if (tth == null || !TokenHash.matches(tth, request.txnToken())) {
                throw new AssertionException(
                        ErrorCode.DELEGATION_INVALID, WPT, "WPT tth is not the hash of the Txn-Token presented");
            }
        } else if (tth != null) {
            throw new AssertionException(
                    ErrorCode.DELEGATION_INVALID, WPT, "WPT binds a Txn-Token the request does not carry");
        }

        // 8. other tokens: none understood
        Object oth = claims.get("oth");
        if (oth != null) {
            if (!(oth instanceof Map<?, ?> others)) {
                throw new AssertionException(ErrorCode.MALFORMED, WPT, "WPT oth is not an object");
            }
            if (!others.isEmpty()) {
                throw new AssertionException(
                        ErrorCode.UNSUPPORTED, WPT, "WPT oth names tokens this verifier does not understand");
            }
        }

        // 9. single use, last: only a WPT that passed every other check spends a place
        String jti = Claims.string(claims, "jti", limits, WPT);
        replay.checkAndRemember(wit.subject(), jti, exp.plus(skew));
        return new VerifiedWimse(wit, jti, exp, audience, htm, txnTokenBound);
    }

    /**
     * Verifies a WIT alone (steps 1 to 5 of the WIT).
     *
     * @return the verified WIT, never {@code null}
     * @throws AssertionException with the code of the first check that fails
     */
    public Wit verifyWit(String token) {
        Limits limits = settings.limits();
        CompactJws.Segments parts = segments(token, "WIT", WIT);
        Map<String, Object> header = Json.parseObject(Codec.utf8(Codec.fromB64url(parts.header())));

        // 2. type and algorithm
        requireType(header, WitIssuer.TYPE, WIT);
        if (!ES256.equals(header.get("alg"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, WIT, "WIT alg is not ES256");
        }
        requireNoCrit(header, WIT);

        // 3. the trust domain's issuer key and the signature
        String kid = Claims.optString(header, "kid", limits, WIT);
        if (kid == null || kid.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, WIT, "WIT without kid");
        }
        PublicKey issuerKey = resolve(kid);
        Es256.requireP256(issuerKey, WIT);
        verifySignature(issuerKey, parts, WIT);

        // 4. subject, time, issuer
        Map<String, Object> claims = Json.parseObject(Codec.utf8(Codec.fromB64url(parts.payload())));
        SpiffeId sub = SpiffeId.parse(Claims.string(claims, "sub", limits, WIT));
        if (!sub.memberOf(settings.trustDomain())) {
            throw new AssertionException(
                    ErrorCode.UNTRUSTED_KEY,
                    WIT,
                    "WIT sub " + sub + " is not in the trust domain " + settings.trustDomain());
        }
        Instant iat = Claims.optTime(claims, "iat", WIT);
        Instant exp = Claims.optTime(claims, "exp", WIT);
        if (exp == null) {
            throw new AssertionException(ErrorCode.MALFORMED, WIT, "WIT without exp");
        }
        settings.timeRules().check(WIT, iat, Claims.optTime(claims, "nbf", WIT), exp);
        String iss = Claims.optString(claims, "iss", limits, WIT);
        if (iss != null && !(SpiffeId.isValid(iss) && SpiffeId.parse(iss).equals(settings.witIssuer()))) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, WIT, "WIT iss is not the WIT issuer");
        }
        String jti = Claims.optString(claims, "jti", limits, WIT);

        // 5. the confirmation key
        PublicKey cnfKey = confirmationKey(claims);
        return new Wit(token, kid, sub, iss, jti, cnfKey, iat, exp);
    }

    private CompactJws.Segments segments(String token, String what, int layer) {
        if (token == null || token.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, "missing " + what);
        }
        if (token.length() > settings.maxTokenLength()) {
            throw new AssertionException(
                    ErrorCode.LIMIT_EXCEEDED,
                    layer,
                    what + " of " + token.length() + " characters over the limit " + settings.maxTokenLength());
        }
        CompactJws.Segments parts = CompactJws.split(token);
        // an empty signature is left to the signature check, after the header: alg "none" is refused
        // as what it is (UNSUPPORTED), not as a shape
        if (parts.header().isEmpty() || parts.payload().isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, layer, what + " is not a compact JWS of three segments");
        }
        return parts;
    }

    /**
     * {@code typ} names the media type {@code application/<type>}, with or without the {@code
     * application/} prefix, case-insensitively (RFC 7515 §4.1.9).
     */
    private static void requireType(Map<String, Object> header, String type, int layer) {
        if (!(header.get("typ") instanceof String typ)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "typ is not " + type);
        }
        String t = typ.toLowerCase(Locale.ROOT);
        if (t.startsWith("application/")) {
            t = t.substring("application/".length());
        }
        if (!t.equals(type)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "typ is not " + type);
        }
    }

    private static void requireNoCrit(Map<String, Object> header, int layer) {
        if (header.containsKey("crit")) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, layer, "critical header extensions are not supported");
        }
    }

    private void verifySignature(PublicKey key, CompactJws.Segments parts, int layer) {
        byte[] der = Es256.concatToDer(Codec.fromB64url(parts.signature()), layer);
        byte[] input = parts.signingInput().getBytes(StandardCharsets.US_ASCII);
        Es256.requireValid(key, input, der, provider, layer);
    }

    private PublicKey resolve(String kid) {
        PublicKey key;
        try {
            key = keys.resolve(kid);
        } catch (AssertionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new AssertionException(ErrorCode.UPSTREAM_UNAVAILABLE, "the WIT issuer's keys are unavailable", e);
        }
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, WIT, "unknown WIT issuer key id");
        }
        return key;
    }

    /** {@code cnf.jwk}: an EC P-256 public key whose {@code alg} is ES256. */
    private PublicKey confirmationKey(Map<String, Object> claims) {
        if (!(claims.get("cnf") instanceof Map<?, ?> cnf)) {
            throw new AssertionException(ErrorCode.MALFORMED, WIT, "WIT without cnf");
        }
        if (!(cnf.get("jwk") instanceof Map<?, ?> jwk)) {
            throw new AssertionException(ErrorCode.MALFORMED, WIT, "WIT cnf without jwk");
        }
        Object alg = jwk.get("alg");
        if (alg == null) {
            throw new AssertionException(ErrorCode.MALFORMED, WIT, "WIT cnf.jwk without alg");
        }
        if (!ES256.equals(alg) || !"EC".equals(jwk.get("kty")) || !"P-256".equals(jwk.get("crv"))) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, WIT, "WIT cnf.jwk is not an ES256 P-256 key");
        }
        PublicKey key;
        try {
            key = Jwks.parseJwk(Json.write(jwk), provider);
        } catch (AssertionException e) {
            throw new AssertionException(e.code(), WIT, "WIT cnf.jwk: " + e.getMessage());
        }
        Es256.requireP256(key, WIT);
        return key;
    }

    /** {@code aud}: a string, or an array of exactly one. */
    private static String audience(Object aud, Limits limits) {
        Object value = aud;
        if (aud instanceof List<?> list) {
            if (list.size() != 1) {
                throw new AssertionException(ErrorCode.WRONG_AUDIENCE, WPT, "WPT aud must name exactly one target");
            }
            value = list.get(0);
        }
        if (value == null) {
            throw new AssertionException(ErrorCode.MALFORMED, WPT, "WPT without aud");
        }
        if (!(value instanceof String s)) {
            throw new AssertionException(ErrorCode.MALFORMED, WPT, "WPT aud is not a string");
        }
        limits.checkClaim("aud", s);
        return s;
    }
}
