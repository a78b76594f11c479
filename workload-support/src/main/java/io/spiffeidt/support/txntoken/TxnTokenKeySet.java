package io.spiffeidt.support.txntoken;

import io.spiffeidt.core.txntoken.TxnTokenKeyResolver;
import io.spiffeidt.core.txntoken.TxnTokenKeys;
import io.spiffeidt.support.keys.FetchedKeySet;
import java.security.Provider;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The Txn-Token Service's keys as a workload that verifies Txn-Tokens holds them
 * (docs/formats/txn-token.md "Service key"): its JWKS ({@code GET /txn-token/keys}, over SPIFFE mTLS)
 * held by a {@link FetchedKeySet}, the mechanism of the DVID key set (its TTL {@code
 * spiffeidt.memo.uses.txn-token-keys.ttl}, default {@link #MAX_AGE}), every JWKS read by {@link
 * TxnTokenKeys#parse}.
 *
 * <p>Thread safety: thread safe.
 */
public final class TxnTokenKeySet extends FetchedKeySet implements TxnTokenKeyResolver {

    /** A key set held for {@link #MAX_AGE}. */
    public TxnTokenKeySet(Supplier<String> fetch, Provider provider, Clock clock) {
        this(fetch, provider, clock, MAX_AGE);
    }

    /**
     * @param fetch returns the Txn-Token Service's JWKS text; throws when it cannot
     * @param provider builds the keys
     * @param clock the time the ages are measured in
     * @param maxAge how long a fetched key set serves
     */
    public TxnTokenKeySet(Supplier<String> fetch, Provider provider, Clock clock, Duration maxAge) {
        super("Txn-Token", "the Txn-Token Service's keys", fetch, TxnTokenKeys::parse, provider, clock, maxAge);
    }
}
