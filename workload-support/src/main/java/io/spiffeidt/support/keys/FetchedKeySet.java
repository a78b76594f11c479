package io.spiffeidt.support.keys;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSetBasedJWKSource;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSetUnavailableException;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.SecurityContext;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.jws.JwsKeyResolver;
import java.security.Provider;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * A JWKS fetched from another workload and held by nimbus' JWK set source ({@link JWKSourceBuilder}), as
 * the DVID and Txn-Token key sets hold theirs: fetched at the first use and again at the first use after
 * its TTL; a {@code kid} it does not hold makes it fetch again (a rotated key), within nimbus' rate limit
 * (two fetches per {@link #UNKNOWN_KID_INTERVAL}, whatever asked for them). Every JWKS is read by the
 * format's own parser (its rules, the provider's keys) before nimbus holds it.
 *
 * <p>Fails closed: a key set that could not be fetched or read, or is older than its TTL and could not be
 * fetched again, serves no key ({@link ErrorCode#UPSTREAM_UNAVAILABLE}); a key that left the source's set
 * is gone here at the latest one TTL later. So nimbus' outage tolerance (serving an expired set while the
 * source is down) stays off; so does its refresh-ahead (a background fetch shortly before the TTL ends),
 * which would take fetches from the rate limit an unknown {@code kid} needs.
 *
 * <p>The base of a workload's key set of one format: the subclass names the keys and gives the
 * format's parser, and implements that format's resolver interface.
 *
 * <p>Thread safety: thread safe; one fetch at a time, the others wait for its result.
 */
public abstract class FetchedKeySet implements JwsKeyResolver {

    /** How long a fetched key set serves by default. */
    public static final Duration MAX_AGE = Duration.ofMinutes(5);

    /** The interval in which at most two fetches are made. */
    public static final Duration UNKNOWN_KID_INTERVAL = Duration.ofSeconds(30);

    /** The longest a caller waits for another thread's fetch. */
    private static final long REFRESH_TIMEOUT_MILLIS = 15_000;

    /** The keys of one fetched set, built once with the provider. */
    private record Parsed(JWKSet set, Map<String, PublicKey> keys) {}

    private final JWKSetSource<SecurityContext> source;
    private final String name;
    private final String from;
    private final BiFunction<String, Provider, Map<String, PublicKey>> parse;
    private final Provider provider;
    private final Clock clock;
    private volatile Parsed last;

    /**
     * @param name what the keys sign, for messages ({@code DVID}: "unknown " + name + " key id")
     * @param from whose keys they are, for messages ({@code the asserting workload's DVID keys})
     * @param fetch returns the JWKS text; throws {@link AssertionException} (or another runtime
     *     exception) when it cannot
     * @param parse reads a JWKS text by the format's rules into {@code kid → key}; throws when the set
     *     breaks them
     * @param provider builds the keys
     * @param clock the time the ages are measured in
     * @param maxAge how long a fetched key set serves
     */
    protected FetchedKeySet(
            String name,
            String from,
            Supplier<String> fetch,
            BiFunction<String, Provider, Map<String, PublicKey>> parse,
            Provider provider,
            Clock clock,
            Duration maxAge) {
        Objects.requireNonNull(fetch, "fetch");
        this.name = Objects.requireNonNull(name, "name");
        this.from = Objects.requireNonNull(from, "from");
        this.parse = Objects.requireNonNull(parse, "parse");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.clock = Objects.requireNonNull(clock, "clock");
        JWKSetSource<SecurityContext> fetching = new JWKSetSource<>() {
            @Override
            public JWKSet getJWKSet(JWKSetCacheRefreshEvaluator refresh, long time, SecurityContext context)
                    throws KeySourceException {
                return fetch(fetch);
            }

            @Override
            public void close() {}
        };
        JWKSetBasedJWKSource<SecurityContext> built =
                (JWKSetBasedJWKSource<SecurityContext>) JWKSourceBuilder.create(fetching)
                        .retrying(false)
                        .outageTolerant(false)
                        .rateLimited(UNKNOWN_KID_INTERVAL.toMillis())
                        .refreshAheadCache(false)
                        .cache(maxAge.toMillis(), REFRESH_TIMEOUT_MILLIS)
                        .build();
        // asked directly, so that the sources measure time with this clock
        this.source = built.getJWKSetSource();
    }

    /**
     * The key named {@code kid}.
     *
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} for a {@code kid} the set does not hold
     *     after a fetch (or when the rate limit allows none); {@link ErrorCode#UPSTREAM_UNAVAILABLE} when
     *     the set cannot be fetched or read
     */
    @Override
    public final PublicKey resolve(String kid) {
        long now = clock.millis();
        JWKSet held = get(JWKSetCacheRefreshEvaluator.noRefresh(), now, false);
        PublicKey key = key(held, kid);
        if (key == null) {
            try {
                key = key(get(JWKSetCacheRefreshEvaluator.referenceComparison(held), now, true), kid);
            } catch (RateLimited e) {
                key = null;
            }
        }
        if (key == null) {
            throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown " + name + " key id");
        }
        return key;
    }

    /** Thrown by {@link #get} when a refresh for an unknown {@code kid} hit the rate limit. */
    private static final class RateLimited extends RuntimeException {
        RateLimited() {
            super(null, null, false, false);
        }
    }

    private JWKSet get(JWKSetCacheRefreshEvaluator refresh, long now, boolean forUnknownKid) {
        try {
            return source.getJWKSet(refresh, now, null);
        } catch (RateLimitReachedException e) {
            if (forUnknownKid) {
                throw new RateLimited();
            }
            throw unavailable(e);
        } catch (KeySourceException e) {
            throw unavailable(e);
        }
    }

    private AssertionException unavailable(KeySourceException e) {
        ErrorCode code = e.getCause() instanceof AssertionException a ? a.code() : null;
        return new AssertionException(
                ErrorCode.UPSTREAM_UNAVAILABLE,
                from + " could not be fetched" + (code == null ? "" : " (" + code + ")"),
                e);
    }

    private PublicKey key(JWKSet set, String kid) {
        Parsed p = last;
        if (p != null && p.set() == set) {
            return p.keys().get(kid);
        }
        JWK jwk = set.getKeyByKeyId(kid);
        try {
            if (jwk instanceof ECKey ec) {
                return ec.toECPublicKey(provider);
            }
            return jwk instanceof RSAKey rsa ? rsa.toRSAPublicKey() : null;
        } catch (JOSEException e) {
            return null;
        }
    }

    private JWKSet fetch(Supplier<String> fetch) throws KeySourceException {
        Map<String, PublicKey> keys;
        try {
            keys = parse.apply(fetch.get(), provider);
        } catch (RuntimeException e) {
            throw new JWKSetUnavailableException(from + " could not be fetched", e);
        }
        List<JWK> jwks = new ArrayList<>(keys.size());
        keys.forEach((kid, key) -> {
            if (key instanceof ECPublicKey ec) {
                jwks.add(new ECKey.Builder(Curve.P_256, ec).keyID(kid).build());
            } else if (key instanceof RSAPublicKey rsa) {
                jwks.add(new RSAKey.Builder(rsa).keyID(kid).build());
            }
        });
        JWKSet set = new JWKSet(jwks);
        last = new Parsed(set, Map.copyOf(keys));
        return set;
    }
}
