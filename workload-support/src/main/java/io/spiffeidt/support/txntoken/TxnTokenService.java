package io.spiffeidt.support.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Minted;
import io.spiffeidt.support.hop.Minting;
import io.spiffeidt.support.hop.Received;

/**
 * The Txn-Token hop's {@link Minting} at the asserting workload, the Txn-Token Service
 * (docs/formats/txn-token.md "Endpoints"): a token for the user of an exchanged access token
 * ({@link #mint}), and the replacement of a token the service issued ({@link #replace}), both signed
 * with the service's key the hop was given at construction.
 *
 * <p>Thread safety: implementations are thread safe.
 */
public interface TxnTokenService extends Minting<TxnToken> {

    /**
     * The replacement of the token {@code caller} presents: verified with the service's own key
     * ({@code validate}), then issued anew for the caller ({@code mint}), its size recorded.
     *
     * @throws AssertionException as the verification of the presented token
     */
    Minted<TxnToken> replace(Received presented, Caller caller);
}
