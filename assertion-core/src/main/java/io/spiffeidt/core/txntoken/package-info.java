/**
 * The OAuth Transaction Token (draft-ietf-oauth-transaction-tokens, docs/formats/txn-token.md): a
 * short-lived JWT with the header type {@code txntoken+jwt} that the Txn-Token Service (here the
 * asserting workload) signs with its own P-256 key and every workload verifies against the service's
 * JWKS. It is a baseline beside the four SPIFFE-IdT documents: one signature, no per-hop layer.
 *
 * <p>Entry points: {@link io.spiffeidt.core.txntoken.TxnTokenMinter} (a token for a user, and the
 * replacement of one), {@link io.spiffeidt.core.txntoken.TxnTokenVerifier} and {@link
 * io.spiffeidt.core.txntoken.TxnTokenKeys}. Everything here is pure: the JCA provider, the clock
 * and the random source are parameters.
 */
package io.spiffeidt.core.txntoken;
