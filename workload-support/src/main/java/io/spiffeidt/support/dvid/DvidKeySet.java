package io.spiffeidt.support.dvid;

import io.spiffeidt.core.dvid.DvidKeyResolver;
import io.spiffeidt.core.dvid.DvidKeys;
import io.spiffeidt.support.keys.FetchedKeySet;
import java.security.Provider;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The asserting workload's DVID keys as a workload that verifies DVIDs itself holds them
 * (docs/formats/dvid.md §3 step 2): its JWKS ({@code GET /dvid/keys}) held by a {@link FetchedKeySet}
 * (its TTL {@code spiffeidt.memo.uses.dvid-keys.ttl}, default {@link #MAX_AGE}), every JWKS read by {@link
 * DvidKeys#parse}.
 *
 * <p>Thread safety: thread safe.
 */
public final class DvidKeySet extends FetchedKeySet implements DvidKeyResolver {

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
        super("DVID", "the asserting workload's DVID keys", fetch, DvidKeys::parse, provider, clock, maxAge);
    }
}
