/**
 * DVID, the delegated assertion SVID (spec/dvid.md): a compact JWS minted by the asserting
 * workload that says "workload {@code sub} may act for user {@code dpr} at {@code dpa} until
 * {@code exp}", its local verifier, the JWKS of its key, and the RSA-signature zero-knowledge proof
 * that shows a valid IdP signature on the user's OAuth token exists without revealing it.
 *
 * <p>Entry points: {@link io.spiffeidt.core.dvid.DvidMinter}, {@link
 * io.spiffeidt.core.dvid.DvidVerifier}, {@link io.spiffeidt.core.dvid.DvidKeys}, {@link
 * io.spiffeidt.core.dvid.RsaSignatureProof}, {@link io.spiffeidt.core.dvid.ZkProofCodec} and {@link
 * io.spiffeidt.core.dvid.DvidIntrospection}. Everything here is pure: the JCA provider, the clock
 * and the random source are parameters.
 */
package io.spiffeidt.core.dvid;
