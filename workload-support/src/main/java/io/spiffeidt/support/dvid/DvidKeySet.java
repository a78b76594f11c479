package io.spiffeidt.support.dvid;

import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidKeys;
import io.spiffeidt.support.keys.FetchedKeySet;
import java.security.Provider;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The asserting workload's DVID keys as a workload that verifies DVIDs itself holds them
 * (docs/formats/dvid.md §3 step 2): its JWKS ({@code GET /dvid/keys}) held by a {@link FetchedKeySet}
 * (its TTL {@code spiffeidt.memo.dvid-keys.ttl}, default {@link #MAX_AGE}), every JWKS read by {@link
 * DvidKeys#parse}.
 *
 * <p>Thread safety: thread safe.
 */
public final class DvidKeySet implements DvidKeyResolver {

    /** How long a fetched key set serves by default. */
    public static final Duration MAX_AGE = Duration.ofMinutes(5);

    /** The interval in which at most two fetches are made. */
    public static final Duration UNKNOWN_KID_INTERVAL = FetchedKeySet.UNKNOWN_KID_INTERVAL;

    private final FetchedKeySet keys;

    /** A key set held for {@link #MAX_AGE}. */
    public DvidKeySet(Supplier<String> fetch, Provider provider, Clock clock) {
        this(fetch, provider, clock, MAX_AGE);
    }

    /**
     * @param fetch returns the asserting workload's JWKS text; throws when it cannot
     * @param provider builds the keys
     * @param clock the time the ages are measured in
     * @param maxAge how long a fetched key set serves
     */
    public DvidKeySet(Supplier<String> fetch, Provider provider, Clock clock, Duration maxAge) {
        this.keys = new FetchedKeySet(
                "DVID", "the asserting workload's DVID keys", fetch, DvidKeys::parse, provider, clock, maxAge);
    }

    @Override
    public PublicKey resolve(String kid) {
        return keys.resolve(kid);
    }
}
