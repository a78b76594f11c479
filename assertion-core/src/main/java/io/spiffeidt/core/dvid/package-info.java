/**
 * DVID, the delegated assertion SVID (docs/formats/dvid.md): a compact JWS minted by the asserting
 * workload that says "workload {@code sub} may act for user {@code dpr} at {@code dpa} until
 * {@code exp}", its local verifier, the JWKS of its key, and its optional embedded proof ({@link
 * io.spiffeidt.core.dvid.EmbeddedZkp}, made with {@link io.spiffeidt.core.zkp}) that shows a valid
 * IdP signature on the user's OAuth token exists without revealing it.
 *
 * <p>Entry points: {@link io.spiffeidt.core.dvid.DvidMinter}, {@link
 * io.spiffeidt.core.dvid.DvidVerifier}, {@link io.spiffeidt.core.dvid.DvidKeys} and {@link
 * io.spiffeidt.core.dvid.EmbeddedZkp}; the introspection answer is {@link
 * io.spiffeidt.core.zkp.OAuthProof}. Everything here is pure: the JCA provider, the clock and the
 * random source are parameters.
 */
package io.spiffeidt.core.dvid;
