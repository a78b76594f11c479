package io.spiffeidt.support.wimse;

import io.spiffeidt.core.txntoken.TxnToken;
import io.spiffeidt.core.wimse.VerifiedWimse;
import io.spiffeidt.support.hop.Verified;
import java.util.Objects;

/**
 * What a tier verified of a wimse request (docs/formats/wimse.md "Verification and replay"): the
 * sender's WIT and WPT, and the Txn-Token the WPT bound, verified as in mode txn-token.
 *
 * <p>Thread safety: immutable.
 *
 * @param proof the verified WIT and WPT (the sending workload, the request the WPT was for)
 * @param txnToken the verified Txn-Token: the user
 */
public record WimseDocument(VerifiedWimse proof, Verified<TxnToken> txnToken) {

    public WimseDocument {
        Objects.requireNonNull(proof, "proof");
        Objects.requireNonNull(txnToken, "txnToken");
    }

    /** The verified Txn-Token's claims. */
    public TxnToken token() {
        return txnToken.document();
    }
}
