package io.spiffeidt.support.oauth;

import com.nimbusds.jose.Algorithm;
import com.nimbusds.jose.Header;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.memo.Memos;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.security.Key;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies OAuth 2.0 access tokens (RS256 JWTs, RFC 9068) from an allow-list of issuers
 * (docs/design.md "OAuth tokens"), on nimbus' {@link DefaultJWTProcessor}:
 *
 * <ol>
 *   <li>Size bound ({@code LIMIT_EXCEEDED} over 64 KiB), a signed JWT ({@code MALFORMED}), {@code
 *       alg} {@code RS256} and no {@code crit} ({@code UNSUPPORTED}: {@code none}, {@code HS256},
 *       ...).
 *   <li>{@code iss} must be on the allow-list ({@code UNKNOWN_ISSUER}), checked before any network
 *       call; the JWKS URI comes from configuration or OIDC discovery of the configured issuer,
 *       never from the token.
 *   <li>{@code typ} {@code at+jwt} when the issuer issues RFC 9068 tokens ({@code UNSUPPORTED}: an
 *       ID token is no access token); for an issuer without RFC 9068 (Keycloak by default: {@code typ}
 *       {@code JWT}), a token whose claims mark it as an ID token ({@code at_hash}, {@code c_hash}, a
 *       {@code typ} claim other than {@code Bearer}) is refused the same way.
 *   <li>The key by {@code kid} from the issuer's JWKS, cached with refresh-ahead or fetched per call,
 *       timed as {@code jwks_fetch}. An unknown {@code kid} is the caller's fault: {@code
 *       UNTRUSTED_KEY}, also when the refetch it causes is refused by the rate limit (at most one
 *       per {@code jwks-refetch-interval}); the cache's own refresh still picks up a rotated key
 *       within {@code cache-ttl}. An unreachable IdP is {@code UPSTREAM_UNAVAILABLE}.
 *   <li>Signature ({@code BAD_SIGNATURE}); {@code iss} exactly, the issuer's configured {@code aud}
 *       ({@code WRONG_AUDIENCE}), {@code sub} and {@code exp} required ({@code MALFORMED}), {@code
 *       exp} / {@code nbf} with the skew ({@code EXPIRED}, {@code NOT_YET_VALID}) by nimbus' {@link
 *       DefaultJWTClaimsVerifier} on our clock.
 * </ol>
 *
 * Every failure but an unreachable IdP is an {@link InvalidAccessTokenException} (RFC 6750 {@code
 * invalid_token}). The whole verification is timed as {@code oauth_verify}. Nothing here logs or
 * returns the token. With a memo ({@link VerifiedTokens}, {@code spiffeidt.memo.uses.oauth-token}), a token that
 * verified is answered from the memo by its exact text for a bounded time.
 *
 * <p>Thread safety: thread safe; JWKS sources and processors are created lazily per issuer and
 * shared.
 */
public class OAuthTokenVerifier implements Closeable {

    private static final Logger log = LoggerFactory.getLogger(OAuthTokenVerifier.class);

    /** The largest token accepted. */
    public static final int MAX_TOKEN_LENGTH = 64 * 1024;

    /** The RFC 9068 type of a JWT access token. */
    public static final JOSEObjectType AT_JWT = new JOSEObjectType("at+jwt");

    /** The {@code typ} claim Keycloak writes into its access tokens (its ID tokens say {@code ID}). */
    private static final String BEARER_TYP = "Bearer";

    private static final int JWKS_SIZE_LIMIT = 512 * 1024;
    private static final int MIN_RSA_BITS = 2048;

    private final OAuthProperties settings;
    private final TimeRules timeRules;
    private final OperationMetrics metrics;
    private final ResourceRetriever retriever;
    private final java.security.Provider rsaProvider;
    private final Map<String, OAuthProperties.Issuer> issuers;
    private final Map<String, URL> jwksUrls = new ConcurrentHashMap<>();
    private final Map<String, JWKSource<Call>> sources = new ConcurrentHashMap<>();
    private final Map<String, DefaultJWTProcessor<Call>> processors = new ConcurrentHashMap<>();
    private final VerifiedTokens memo;

    /**
     * A verifier that remembers verified tokens in the memo {@code oauth-token} of {@code memos},
     * each for at most the memo's TTL, the JWKS cache's TTL and the token's {@code exp} ({@link
     * VerifiedTokens}); nothing when the JWKS is fetched on every call.
     *
     * @param settings issuers, cache mode, the timeouts of the requests to the issuers
     * @param timeRules clock and skew
     * @param signatureProvider provider for RSA signature verification
     * @param metrics where {@code oauth_verify} and {@code jwks_fetch} go
     * @param memos makes the memo of verified tokens ({@link Memos#none()}: every call verifies in full)
     */
    public OAuthTokenVerifier(
            OAuthProperties settings,
            TimeRules timeRules,
            SignatureProvider signatureProvider,
            OperationMetrics metrics,
            Memos memos) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.timeRules = Objects.requireNonNull(timeRules, "timeRules");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.rsaProvider = rsaProvider(Objects.requireNonNull(signatureProvider, "signatureProvider"));
        this.retriever = new DefaultResourceRetriever(
                (int) settings.jwksConnectTimeout().toMillis(),
                (int) settings.jwksReadTimeout().toMillis(),
                JWKS_SIZE_LIMIT);
        Map<String, OAuthProperties.Issuer> byName = new LinkedHashMap<>();
        for (OAuthProperties.Issuer issuer : settings.issuers()) {
            byName.put(issuer.issuer(), issuer);
        }
        this.issuers = Map.copyOf(byName);
        boolean keysCached = settings.jwksCache() != JwksCacheMode.NONE;
        this.memo = new VerifiedTokens(memos, keysCached ? settings.cacheTtl() : null);
    }

    /**
     * Verifies an access token.
     *
     * @param mode the mode the token is verified for (metric tag)
     * @param accessToken the compact JWT
     * @return the verified token
     * @throws InvalidAccessTokenException MALFORMED, LIMIT_EXCEEDED, UNSUPPORTED, UNKNOWN_ISSUER,
     *     UNTRUSTED_KEY, BAD_SIGNATURE, EXPIRED, NOT_YET_VALID or WRONG_AUDIENCE
     * @throws AssertionException UPSTREAM_UNAVAILABLE when the IdP cannot be reached
     */
    public VerifiedOAuthToken verify(Mode mode, String accessToken) {
        return metrics.time(mode, Operation.OAUTH_VERIFY, () -> {
            if (!memo.enabled() || accessToken == null || accessToken.length() > MAX_TOKEN_LENGTH) {
                return doVerify(mode, accessToken);
            }
            VerifiedOAuthToken known = memo.get(accessToken);
            if (known != null) {
                return known;
            }
            VerifiedOAuthToken verified = doVerify(mode, accessToken);
            memo.remember(accessToken, verified);
            return verified;
        });
    }

    /** Whether verified tokens are remembered ({@code spiffeidt.memo.uses.oauth-token}). */
    public boolean remembersTokens() {
        return memo.enabled();
    }

    /**
     * The RS256 key {@code kid} ({@code ""} for any) of an allow-listed issuer, from its JWKS (cached
     * per {@code jwks-cache}); what a proof about the issuer's token is checked with. Usable as an
     * {@link io.spiffeidt.core.zkp.IdpKeyResolver}.
     *
     * @throws AssertionException UNKNOWN_ISSUER, UNTRUSTED_KEY (no such key), UPSTREAM_UNAVAILABLE
     */
    public RSAPublicKey idpKey(String issuerName, String kid) {
        OAuthProperties.Issuer issuer = issuers.get(issuerName);
        if (issuer == null) {
            throw new AssertionException(ErrorCode.UNKNOWN_ISSUER, "issuer " + safe(issuerName) + " is not allowed");
        }
        JWKMatcher.Builder matcher = new JWKMatcher.Builder()
                .keyType(KeyType.RSA)
                .keyUses(KeyUse.SIGNATURE, null)
                .algorithms(JWSAlgorithm.RS256, null);
        if (kid != null && !kid.isEmpty()) {
            matcher.keyID(kid);
        }
        List<JWK> found;
        try {
            found = source(issuer).get(new JWKSelector(matcher.build()), new Call(null));
        } catch (RateLimitReachedException e) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown IdP key id", e);
        } catch (KeySourceException e) {
            throw unavailable(issuer, e);
        }
        for (JWK jwk : found) {
            try {
                RSAPublicKey key = ((RSAKey) jwk).toRSAPublicKey();
                if (key.getModulus().bitLength() >= MIN_RSA_BITS) {
                    return key;
                }
            } catch (JOSEException | ClassCastException e) {
                // not a usable RSA key: try the next
            }
        }
        throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown IdP key id");
    }

    private VerifiedOAuthToken doVerify(Mode mode, String token) {
        if (token == null || token.isEmpty()) {
            throw invalid(ErrorCode.MALFORMED, "missing access token", null);
        }
        if (token.length() > MAX_TOKEN_LENGTH) {
            throw invalid(ErrorCode.LIMIT_EXCEEDED, "access token over the length limit", null);
        }
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw invalid(ErrorCode.MALFORMED, "access token is not a signed JWT", null);
        }
        Algorithm alg;
        try {
            alg = Header.parse(new Base64URL(parts[0])).getAlgorithm();
        } catch (ParseException | RuntimeException e) {
            throw invalid(ErrorCode.MALFORMED, "access token header is not a JOSE header", e);
        }
        if (!JWSAlgorithm.RS256.equals(alg)) {
            throw invalid(
                    ErrorCode.UNSUPPORTED, "access token algorithm " + safe(alg.getName()) + " not allowed", null);
        }
        SignedJWT jwt;
        JWTClaimsSet unverified;
        try {
            jwt = new SignedJWT(new Base64URL(parts[0]), new Base64URL(parts[1]), new Base64URL(parts[2]));
            unverified = jwt.getJWTClaimsSet();
        } catch (ParseException | RuntimeException e) {
            throw invalid(ErrorCode.MALFORMED, "access token is not a signed JWT", e);
        }
        if (parts[2].isEmpty()) {
            throw invalid(ErrorCode.MALFORMED, "access token without signature", null);
        }
        JWSHeader header = jwt.getHeader();
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            throw invalid(ErrorCode.UNSUPPORTED, "access token with critical header parameters", null);
        }
        Object iss = unverified.getClaim("iss");
        if (!(iss instanceof String issuerName)) {
            throw invalid(ErrorCode.MALFORMED, "access token without iss", null);
        }
        OAuthProperties.Issuer issuer = issuers.get(issuerName);
        if (issuer == null) {
            throw invalid(ErrorCode.UNKNOWN_ISSUER, "issuer " + safe(issuerName) + " is not allowed", null);
        }
        if (!issuer.rfc9068()) {
            refuseIdToken(unverified);
        }
        Call call = new Call(mode);
        JWTClaimsSet claims;
        try {
            claims = processor(issuer).process(jwt, call);
        } catch (BadJWTException e) {
            throw invalid(claimsCode(unverified, issuer), "access token claims rejected: " + e.getMessage(), e);
        } catch (BadJWSException e) {
            throw invalid(ErrorCode.BAD_SIGNATURE, "access token signature from " + issuerName + " does not verify", e);
        } catch (BadJOSEException e) {
            if (call.noKey) {
                throw invalid(ErrorCode.UNTRUSTED_KEY, "no RS256 key with that kid from " + issuerName, e);
            }
            throw invalid(ErrorCode.UNSUPPORTED, "not an RFC 9068 access token (typ)", e);
        } catch (RateLimitReachedException e) {
            // an unknown kid, and the refetch it asked for is refused for now: still the caller's fault
            throw invalid(ErrorCode.UNTRUSTED_KEY, "no RS256 key with that kid from " + issuerName, e);
        } catch (KeySourceException e) {
            throw unavailable(issuer, e);
        } catch (JOSEException e) {
            throw invalid(ErrorCode.BAD_SIGNATURE, "access token signature cannot be checked", e);
        }
        Instant exp = claims.getExpirationTime().toInstant();
        Date iat = claims.getIssueTime();
        if (iat != null && iat.toInstant().isAfter(timeRules.now().plus(timeRules.skew()))) {
            throw invalid(ErrorCode.NOT_YET_VALID, "access token issued in the future", null);
        }
        String sub = claims.getSubject();
        if (sub == null || sub.isEmpty()) {
            throw invalid(ErrorCode.MALFORMED, "access token without sub", null);
        }
        RSAPublicKey key = call.verifiedBy;
        try {
            return new VerifiedOAuthToken(
                    issuerName,
                    sub,
                    exp,
                    parts[0] + "." + parts[1],
                    jwt.getSignature().decode(),
                    header.getKeyID(),
                    key,
                    new RSAKey.Builder(key).keyID(header.getKeyID()).build().toJSONString());
        } catch (RuntimeException e) {
            throw invalid(ErrorCode.MALFORMED, "access token cannot be read", e);
        }
    }

    /**
     * An issuer without RFC 9068 types its ID tokens and access tokens alike ({@code typ} {@code
     * JWT}, as Keycloak does), so the header cannot tell them apart: an ID token is refused ({@code
     * UNSUPPORTED}, as the {@code typ} check refuses it for an RFC 9068 issuer) when its claims say
     * what it is: {@code at_hash} or {@code c_hash} (claims of ID tokens only, OpenID Connect Core
     * 3.1.3.6 and 3.3.2.11), or a {@code typ} claim other than {@code Bearer} (Keycloak writes {@code
     * ID} into its ID tokens, {@code Bearer} into its access tokens). The audience check stays the
     * main guard: an ID token is for the client, not for the workloads' audience. Checked before the
     * signature: a refusal needs no key.
     */
    private static void refuseIdToken(JWTClaimsSet unverified) {
        if (unverified.getClaim("at_hash") != null || unverified.getClaim("c_hash") != null) {
            throw invalid(ErrorCode.UNSUPPORTED, "an ID token (at_hash, c_hash) is no access token", null);
        }
        Object typ = unverified.getClaim("typ");
        if (typ != null && !(typ instanceof String t && t.equalsIgnoreCase(BEARER_TYP))) {
            throw invalid(
                    ErrorCode.UNSUPPORTED, "a token of typ " + safe(String.valueOf(typ)) + " is no access token", null);
        }
    }

    /** Which claim rule failed, in the order nimbus checks them. */
    private ErrorCode claimsCode(JWTClaimsSet claims, OAuthProperties.Issuer issuer) {
        List<String> aud = claims.getAudience();
        if (aud == null || !aud.contains(issuer.audience())) {
            return ErrorCode.WRONG_AUDIENCE;
        }
        Instant now = timeRules.now();
        Duration skew = timeRules.skew();
        Date exp = claims.getExpirationTime();
        if (exp != null && exp.toInstant().plus(skew).isBefore(now)) {
            return ErrorCode.EXPIRED;
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.toInstant().minus(skew).isAfter(now)) {
            return ErrorCode.NOT_YET_VALID;
        }
        return ErrorCode.MALFORMED;
    }

    private DefaultJWTProcessor<Call> processor(OAuthProperties.Issuer issuer) {
        DefaultJWTProcessor<Call> known = processors.get(issuer.issuer());
        if (known != null) {
            return known;
        }
        JWKSource<Call> source = source(issuer);
        DefaultJWTProcessor<Call> processor = new DefaultJWTProcessor<>();
        processor.setJWSTypeVerifier(
                issuer.rfc9068()
                        ? new DefaultJOSEObjectTypeVerifier<>(AT_JWT, new JOSEObjectType("application/at+jwt"))
                        : new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, AT_JWT, null));
        processor.setJWSKeySelector(new KeySelector(source));
        DefaultJWSVerifierFactory verifiers = new DefaultJWSVerifierFactory();
        verifiers.getJCAContext().setProvider(rsaProvider);
        processor.setJWSVerifierFactory(verifiers);
        DefaultJWTClaimsVerifier<Call> claims =
                new DefaultJWTClaimsVerifier<>(
                        Set.of(issuer.audience()),
                        new JWTClaimsSet.Builder().issuer(issuer.issuer()).build(),
                        Set.of("sub", "exp"),
                        null) {
                    @Override
                    protected Date currentTime() {
                        return Date.from(timeRules.now());
                    }
                };
        claims.setMaxClockSkew(
                (int) Math.min(Integer.MAX_VALUE, timeRules.skew().toSeconds()));
        processor.setJWTClaimsSetVerifier(claims);
        DefaultJWTProcessor<Call> raced = processors.putIfAbsent(issuer.issuer(), processor);
        return raced == null ? processor : raced;
    }

    /** RS256 keys by {@code kid}, RSA 2048 bits or more, fetched under the {@code jwks_fetch} timer. */
    private final class KeySelector extends JWSVerificationKeySelector<Call> {

        KeySelector(JWKSource<Call> source) {
            super(JWSAlgorithm.RS256, source);
        }

        @Override
        public List<Key> selectJWSKeys(JWSHeader header, Call call) throws KeySourceException {
            List<Key> keys;
            if (call.mode == null) {
                keys = super.selectJWSKeys(header, call);
            } else {
                try {
                    keys = metrics.time(call.mode, Operation.JWKS_FETCH, () -> {
                        try {
                            return super.selectJWSKeys(header, call);
                        } catch (KeySourceException e) {
                            throw new KeySourceFailure(e);
                        }
                    });
                } catch (KeySourceFailure e) {
                    throw e.getCause();
                }
            }
            List<Key> usable = new ArrayList<>();
            for (Key key : keys) {
                if (key instanceof RSAPublicKey rsa && rsa.getModulus().bitLength() >= MIN_RSA_BITS) {
                    usable.add(key);
                }
            }
            if (usable.isEmpty()) {
                call.noKey = true;
            } else {
                call.verifiedBy = (RSAPublicKey) usable.get(0);
            }
            // several keys with one kid: verify with the first only (nimbus tries each; we keep it simple)
            return usable.isEmpty() ? usable : List.of(usable.get(0));
        }
    }

    private JWKSource<Call> source(OAuthProperties.Issuer issuer) {
        JWKSource<Call> known = sources.get(issuer.issuer());
        if (known != null) {
            return known;
        }
        URL url = jwksUrl(issuer);
        JWKSourceBuilder<Call> builder =
                JWKSourceBuilder.<Call>create(url, retriever).retrying(false);
        if (settings.jwksCache() == JwksCacheMode.NONE) {
            builder.cache(false).rateLimited(false).outageTolerant(false).refreshAheadCache(false);
        } else {
            long ttl = settings.cacheTtl().toMillis();
            long refreshTimeout = Math.max(
                    1,
                    Math.min(
                            JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT,
                            ttl - settings.refreshAhead().toMillis()));
            builder.cache(ttl, refreshTimeout)
                    .refreshAheadCache(settings.refreshAhead().toMillis(), false)
                    // nimbus wants the rate limit below the TTL: the cache's own refresh is never starved
                    .rateLimited(Math.min(
                            settings.jwksRefetchInterval().toMillis(),
                            settings.cacheTtl().toMillis() / 2))
                    .outageTolerant(settings.cacheTtl().toMillis() * 2);
        }
        JWKSource<Call> source = builder.build();
        JWKSource<Call> raced = sources.putIfAbsent(issuer.issuer(), source);
        if (raced != null) {
            closeQuietly(source);
            return raced;
        }
        return source;
    }

    private URL jwksUrl(OAuthProperties.Issuer issuer) {
        URL known = jwksUrls.get(issuer.issuer());
        if (known != null) {
            return known;
        }
        URL url = issuer.jwksUri() != null ? toUrl(issuer.jwksUri()) : discover(issuer.issuer());
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

    private static AssertionException unavailable(OAuthProperties.Issuer issuer, Throwable cause) {
        if (cause instanceof AssertionException a && a.code() == ErrorCode.UPSTREAM_UNAVAILABLE) {
            return a;
        }
        log.warn("JWKS of {} unavailable: {}", issuer.issuer(), cause.getClass().getSimpleName());
        return new AssertionException(
                ErrorCode.UPSTREAM_UNAVAILABLE, "JWKS of " + issuer.issuer() + " unavailable", cause);
    }

    private static InvalidAccessTokenException invalid(ErrorCode code, String message, Throwable cause) {
        return new InvalidAccessTokenException(code, message, cause);
    }

    private static java.security.Provider rsaProvider(SignatureProvider signatureProvider) {
        try {
            return signatureProvider.signature("SHA256withRSA").getProvider();
        } catch (IllegalArgumentException e) {
            return null;
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

    private static void closeQuietly(Object source) {
        if (source instanceof Closeable c) {
            try {
                c.close();
            } catch (IOException e) {
                log.debug("closing a JWKS source failed", e);
            }
        }
    }

    /** Closes the cached JWKS sources (and their refresh threads). */
    @Override
    public void close() {
        sources.values().forEach(OAuthTokenVerifier::closeQuietly);
        sources.clear();
        processors.clear();
    }

    /** One verification: its mode (metric tag) and what the key selector found. */
    private static final class Call implements SecurityContext {
        private final Mode mode;
        private boolean noKey;
        private RSAPublicKey verifiedBy;

        Call(Mode mode) {
            this.mode = mode;
        }
    }

    private static final class KeySourceFailure extends RuntimeException {
        KeySourceFailure(KeySourceException cause) {
            super(cause);
        }

        @Override
        public synchronized KeySourceException getCause() {
            return (KeySourceException) super.getCause();
        }
    }
}
