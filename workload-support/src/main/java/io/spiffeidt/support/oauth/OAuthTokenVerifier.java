package io.spiffeidt.support.oauth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jose.util.ResourceRetriever;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.CompactJws;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.support.SpiffeIdtProperties;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies OAuth 2.0 access tokens (RS256 JWTs) from an allow-list of issuers (docs/design.md "OAuth
 * tokens").
 *
 * <ol>
 *   <li>Size bound, three base64url segments, strict JSON header and payload ({@code MALFORMED};
 *       {@code LIMIT_EXCEEDED} over 64 KiB).
 *   <li>{@code alg} must be {@code RS256} ({@code UNSUPPORTED} otherwise, e.g. {@code none}, {@code
 *       HS256}).
 *   <li>{@code iss} must be configured ({@code UNKNOWN_ISSUER}), checked before any network call;
 *       the JWKS URI comes from configuration or OIDC discovery of the configured issuer, never
 *       from the token.
 *   <li>The key by {@code kid} from the issuer's JWKS, cached with refresh-ahead ({@link
 *       JwksCacheMode#REFRESH_AHEAD}) or fetched per call ({@link JwksCacheMode#NONE}); timed as
 *       {@code jwks_fetch}. An unreachable IdP is {@code UPSTREAM_UNAVAILABLE}.
 *   <li>Signature ({@code BAD_SIGNATURE}), then {@code exp} (required), {@code nbf}, {@code iat}
 *       with skew ({@code EXPIRED}, {@code NOT_YET_VALID}), {@code sub} (required), and the
 *       configured audience if any ({@code WRONG_AUDIENCE}).
 * </ol>
 *
 * The whole verification is timed as {@code oauth_verify}. Nothing here logs or returns the token.
 *
 * <p>Thread safety: thread safe; JWKS sources are created lazily per issuer and shared.
 */
public class OAuthTokenVerifier implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(OAuthTokenVerifier.class);

    /** The largest token accepted. */
    public static final int MAX_TOKEN_LENGTH = 64 * 1024;

    private static final int JWKS_SIZE_LIMIT = 512 * 1024;
    private static final int MIN_RSA_BITS = 2048;

    private final SpiffeIdtProperties.OAuth settings;
    private final TimeRules timeRules;
    private final SignatureProvider signatureProvider;
    private final OperationMetrics metrics;
    private final ResourceRetriever retriever;
    private final Map<String, SpiffeIdtProperties.Issuer> issuers;
    private final Map<String, URL> jwksUrls = new ConcurrentHashMap<>();
    private final Map<String, JWKSource<SecurityContext>> cachedSources = new ConcurrentHashMap<>();

    /**
     * @param settings issuers, cache mode, audience
     * @param timeRules clock and skew
     * @param signatureProvider provider for RSA signature verification
     * @param metrics where {@code oauth_verify} and {@code jwks_fetch} go
     * @param connectTimeout IdP connect timeout
     * @param readTimeout IdP read timeout
     */
    public OAuthTokenVerifier(
            SpiffeIdtProperties.OAuth settings,
            TimeRules timeRules,
            SignatureProvider signatureProvider,
            OperationMetrics metrics,
            Duration connectTimeout,
            Duration readTimeout) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.timeRules = Objects.requireNonNull(timeRules, "timeRules");
        this.signatureProvider = Objects.requireNonNull(signatureProvider, "signatureProvider");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.retriever = new DefaultResourceRetriever(
                (int) connectTimeout.toMillis(), (int) readTimeout.toMillis(), JWKS_SIZE_LIMIT);
        Map<String, SpiffeIdtProperties.Issuer> byName = new LinkedHashMap<>();
        for (SpiffeIdtProperties.Issuer issuer : settings.issuers()) {
            byName.put(issuer.issuer(), issuer);
        }
        this.issuers = Map.copyOf(byName);
    }

    /**
     * Verifies an access token.
     *
     * @param mode the mode the token is verified for (metric tag)
     * @param accessToken the compact JWT
     * @return the verified token
     * @throws AssertionException MALFORMED, LIMIT_EXCEEDED, UNSUPPORTED, UNKNOWN_ISSUER,
     *     BAD_SIGNATURE, EXPIRED, NOT_YET_VALID, WRONG_AUDIENCE or UPSTREAM_UNAVAILABLE
     */
    public VerifiedOAuthToken verify(Mode mode, String accessToken) {
        return metrics.time(mode, Operation.OAUTH_VERIFY, () -> doVerify(mode, accessToken));
    }

    /**
     * The RS256 key {@code kid} ({@code ""} for any) of an allow-listed issuer, from its JWKS (cached
     * per {@code jwks-cache}); used to check a DVID's embedded proof.
     *
     * @throws AssertionException UNKNOWN_ISSUER, BAD_SIGNATURE (no such key), UPSTREAM_UNAVAILABLE
     */
    public java.security.interfaces.RSAPublicKey idpKey(String issuerName, String kid) {
        SpiffeIdtProperties.Issuer issuer = issuers.get(issuerName);
        if (issuer == null) {
            throw new AssertionException(ErrorCode.UNKNOWN_ISSUER, "issuer " + safe(issuerName) + " is not allowed");
        }
        try {
            return keys(issuer, kid == null || kid.isEmpty() ? null : kid)
                    .get(0)
                    .toRSAPublicKey();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unusable IdP key", e);
        }
    }

    private VerifiedOAuthToken doVerify(Mode mode, String token) {
        if (token == null || token.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "missing access token");
        }
        if (token.length() > MAX_TOKEN_LENGTH) {
            throw new AssertionException(ErrorCode.LIMIT_EXCEEDED, "access token over the length limit");
        }
        CompactJws jws;
        try {
            jws = CompactJws.parse(token);
        } catch (AssertionException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token is not a signed JWT: " + e.getMessage(), e);
        }
        Map<String, Object> header = jws.header();
        Map<String, Object> claims = jws.payload();
        byte[] signature = jws.signature();
        if (!(header.get("alg") instanceof String alg)) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token header without alg");
        }
        if (!JWSAlgorithm.RS256.getName().equals(alg)) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "access token algorithm " + safe(alg) + " not allowed");
        }
        if (header.containsKey("crit")) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "access token with critical header parameters");
        }
        Object kidValue = header.get("kid");
        if (kidValue != null && !(kidValue instanceof String)) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token kid is not a string");
        }
        String kid = (String) kidValue;
        if (!(claims.get("iss") instanceof String iss)) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token without iss");
        }
        SpiffeIdtProperties.Issuer issuer = issuers.get(iss);
        if (issuer == null) {
            throw new AssertionException(ErrorCode.UNKNOWN_ISSUER, "issuer " + safe(iss) + " is not allowed");
        }
        if (signature.length == 0) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token without signature");
        }

        List<RSAKey> candidates = metrics.time(mode, Operation.JWKS_FETCH, () -> keys(issuer, kid));
        byte[] signingInput = jws.signingInput().getBytes(StandardCharsets.US_ASCII);
        RSAKey verifiedBy = null;
        for (RSAKey candidate : candidates) {
            if (verifies(candidate, signingInput, signature)) {
                verifiedBy = candidate;
                break;
            }
        }
        if (verifiedBy == null) {
            throw new AssertionException(
                    ErrorCode.BAD_SIGNATURE, "access token signature from " + iss + " does not verify");
        }

        Instant exp = time(claims, "exp");
        if (exp == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token without exp");
        }
        timeRules.check(-1, time(claims, "iat"), time(claims, "nbf"), exp);
        if (!(claims.get("sub") instanceof String sub) || sub.isEmpty()) {
            throw new AssertionException(ErrorCode.MALFORMED, "access token without sub");
        }
        if (settings.audience() != null && !audiences(claims).contains(settings.audience())) {
            throw new AssertionException(ErrorCode.WRONG_AUDIENCE, "access token not for the configured audience");
        }
        try {
            return new VerifiedOAuthToken(
                    iss,
                    sub,
                    exp,
                    jws.signingInput(),
                    signature,
                    kid,
                    verifiedBy.toRSAPublicKey(),
                    verifiedBy.toPublicJWK().toJSONString());
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new AssertionException(ErrorCode.UNSUPPORTED, "IdP key cannot be used", e);
        }
    }

    private static Instant time(Map<String, Object> claims, String name) {
        Object value = claims.get(name);
        if (value == null) {
            return null;
        }
        if (value instanceof BigInteger n && n.bitLength() < 40) {
            return Instant.ofEpochSecond(n.longValueExact());
        }
        if (value instanceof Number n && !(value instanceof BigInteger)) {
            double d = n.doubleValue();
            if (Double.isFinite(d) && Math.abs(d) < 1e12) {
                return Instant.ofEpochSecond((long) d);
            }
        }
        throw new AssertionException(ErrorCode.MALFORMED, "access token claim " + name + " is not a NumericDate");
    }

    private static List<String> audiences(Map<String, Object> claims) {
        Object aud = claims.get("aud");
        List<String> out = new ArrayList<>();
        if (aud instanceof String s) {
            out.add(s);
        } else if (aud instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    private boolean verifies(RSAKey key, byte[] signingInput, byte[] signature) {
        try {
            RSAPublicKey publicKey = key.toRSAPublicKey();
            if (publicKey.getModulus().bitLength() < MIN_RSA_BITS) {
                return false;
            }
            Signature verifier = rsaSignature();
            verifier.initVerify(publicKey);
            verifier.update(signingInput);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | com.nimbusds.jose.JOSEException | RuntimeException e) {
            return false;
        }
    }

    private Signature rsaSignature() {
        try {
            return signatureProvider.signature("SHA256withRSA");
        } catch (IllegalArgumentException e) {
            try {
                return Signature.getInstance("SHA256withRSA");
            } catch (GeneralSecurityException ex) {
                throw new IllegalStateException("no SHA256withRSA implementation", ex);
            }
        }
    }

    private List<RSAKey> keys(SpiffeIdtProperties.Issuer issuer, String kid) {
        JWKMatcher.Builder matcher = new JWKMatcher.Builder()
                .keyType(KeyType.RSA)
                .keyUses(KeyUse.SIGNATURE, null)
                .algorithms(JWSAlgorithm.RS256, null);
        if (kid != null) {
            matcher.keyID(kid);
        }
        JWKSelector selector = new JWKSelector(matcher.build());
        List<JWK> found;
        try {
            if (settings.jwksCache() == JwksCacheMode.NONE) {
                URL url = jwksUrl(issuer);
                found = selector.select(
                        JWKSet.parse(retriever.retrieveResource(url).getContent()));
            } else {
                found = cachedSource(issuer).get(selector, null);
            }
        } catch (IOException | KeySourceException e) {
            log.warn("JWKS of {} unavailable: {}", issuer.issuer(), e.getClass().getSimpleName());
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE, "JWKS of " + issuer.issuer() + " unavailable", e);
        } catch (ParseException e) {
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE, "JWKS of " + issuer.issuer() + " unreadable", e);
        }
        List<RSAKey> keys = new ArrayList<>();
        for (JWK jwk : found) {
            if (jwk instanceof RSAKey rsa && !rsa.isPrivate()) {
                keys.add(rsa);
            } else if (jwk instanceof RSAKey rsa) {
                keys.add(rsa.toPublicJWK());
            }
        }
        if (keys.isEmpty()) {
            throw new AssertionException(
                    ErrorCode.BAD_SIGNATURE,
                    "no RS256 key " + (kid == null ? "" : "with that kid ") + "from " + issuer.issuer());
        }
        return keys;
    }

    private JWKSource<SecurityContext> cachedSource(SpiffeIdtProperties.Issuer issuer) {
        JWKSource<SecurityContext> source = cachedSources.get(issuer.issuer());
        if (source != null) {
            return source;
        }
        URL url = jwksUrl(issuer);
        return cachedSources.computeIfAbsent(
                issuer.issuer(), name -> JWKSourceBuilder.<SecurityContext>create(url, retriever)
                        .cache(settings.cacheTtl().toMillis(), JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT)
                        .refreshAheadCache(settings.refreshAhead().toMillis(), false)
                        .outageTolerant(settings.cacheTtl().toMillis() * 2)
                        .retrying(false)
                        .build());
    }

    private URL jwksUrl(SpiffeIdtProperties.Issuer issuer) {
        URL known = jwksUrls.get(issuer.issuer());
        if (known != null) {
            return known;
        }
        URL url;
        if (issuer.jwksUri() != null) {
            url = toUrl(issuer.jwksUri());
        } else {
            url = discover(issuer.issuer());
        }
        jwksUrls.putIfAbsent(issuer.issuer(), url);
        return url;
    }

    private URL discover(String issuer) {
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        URL discovery = toUrl(URI.create(base + "/.well-known/openid-configuration"));
        try {
            String text = retriever.retrieveResource(discovery).getContent();
            Map<String, Object> doc = JSONObjectUtils.parse(text);
            Object declared = doc.get("issuer");
            if (!issuer.equals(declared)) {
                throw new AssertionException(
                        ErrorCode.UPSTREAM_UNAVAILABLE, "discovery document of " + issuer + " names another issuer");
            }
            if (!(doc.get("jwks_uri") instanceof String jwksUri)) {
                throw new AssertionException(
                        ErrorCode.UPSTREAM_UNAVAILABLE, "discovery document of " + issuer + " without jwks_uri");
            }
            return toUrl(URI.create(jwksUri));
        } catch (IOException | ParseException | IllegalArgumentException e) {
            log.warn("OIDC discovery of {} failed: {}", issuer, e.getClass().getSimpleName());
            throw new AssertionException(ErrorCode.UPSTREAM_UNAVAILABLE, "OIDC discovery of " + issuer + " failed", e);
        }
    }

    private static URL toUrl(URI uri) {
        try {
            return uri.toURL();
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("invalid URL " + uri, e);
        }
    }

    private static String safe(String text) {
        String s = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.toString();
    }

    /** Closes the cached JWKS sources (and their refresh threads). */
    @Override
    public void close() {
        for (JWKSource<SecurityContext> source : cachedSources.values()) {
            if (source instanceof Closeable c) {
                try {
                    c.close();
                } catch (IOException e) {
                    log.debug("closing a JWKS source failed", e);
                }
            }
        }
        cachedSources.clear();
    }
}
