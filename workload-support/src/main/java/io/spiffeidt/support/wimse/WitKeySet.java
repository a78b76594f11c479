package io.spiffeidt.support.wimse;

import io.spiffeidt.core.wimse.WitKeyResolver;
import io.spiffeidt.core.wimse.WitKeys;
import io.spiffeidt.support.keys.FetchedKeySet;
import java.security.Provider;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The WIT issuer's keys as a workload that verifies WITs holds them (docs/formats/wimse.md "Who
 * issues WITs"): the asserting workload's JWKS ({@code GET /wimse/keys}, over SPIFFE mTLS) held by a
 * {@link FetchedKeySet} (its TTL {@code spiffeidt.memo.uses.wimse-keys.ttl}), every JWKS read by
 * {@link WitKeys#parse}.
 *
 * <p>Thread safety: thread safe.
 */
public final class WitKeySet extends FetchedKeySet implements WitKeyResolver {

    /**
     * @param fetch returns the WIT issuer's JWKS text; throws when it cannot
     * @param provider builds the keys
     * @param clock the time the ages are measured in
     * @param maxAge how long a fetched key set serves
     */
    public WitKeySet(Supplier<String> fetch, Provider provider, Clock clock, Duration maxAge) {
        super("WIT issuer", "the WIT issuer's keys", fetch, WitKeys::parse, provider, clock, maxAge);
    }
}
