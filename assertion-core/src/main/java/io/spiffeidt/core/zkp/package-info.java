/**
 * The RSA-signature zero-knowledge proof shared by every mode (docs/formats/dvid.md "The zero-knowledge
 * proof" and "Serialization"): {@link io.spiffeidt.core.zkp.RsaSignatureProof} proves and verifies
 * knowledge of the IdP's RS256 signature on a user's OAuth token without revealing it, {@link
 * io.spiffeidt.core.zkp.ZkProofCodec} reads and writes the original's JSON form, and {@link
 * io.spiffeidt.core.zkp.OAuthProof} is the introspection answer {@code {"msg","zkp","idpKey"}} of
 * DVID, ID-Mode and Anon-Mode (docs/formats/dvid.md "Introspection"). Not a mode: modes may use it, it uses
 * no mode. Everything here is pure: the JCA provider and the random source are parameters.
 */
package io.spiffeidt.core.zkp;
