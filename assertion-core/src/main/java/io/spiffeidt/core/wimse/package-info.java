/**
 * WIMSE application-layer workload authentication (docs/formats/wimse.md): the Workload Identity
 * Token (WIT, draft-ietf-wimse-workload-creds-02 §5.1), a JWT in which an issuer of the trust
 * domain binds a workload's SPIFFE ID to the workload's own P-256 key ({@code cnf.jwk}), and the
 * Workload Proof Token (WPT, draft-ietf-wimse-wpt-02 §2), a short-lived JWT the workload signs with
 * that key for one HTTP request, bound to the method, the target URI, the WIT ({@code wth}) and the
 * Txn-Token that carries the user ({@code tth}).
 *
 * <p>Entry points: {@link io.spiffeidt.core.wimse.WitIssuer}, {@link
 * io.spiffeidt.core.wimse.WptSigner} and {@link io.spiffeidt.core.wimse.WimseVerifier}, with the
 * single-use check {@link io.spiffeidt.core.wimse.JtiReplayCache}. Everything here is pure: the JCA
 * provider, the clock and the random source are parameters. This package reads a Txn-Token only as
 * the bytes it hashes; verifying it is the Txn-Token verifier's business.
 */
package io.spiffeidt.core.wimse;
