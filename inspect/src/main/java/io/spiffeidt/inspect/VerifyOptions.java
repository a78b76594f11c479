package io.spiffeidt.inspect;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What {@code verify} checks against; {@code null} means "not given".
 *
 * @param profile the verification profile
 * @param at the verification time
 * @param originalMaxAge the lifetime assumed for an original document without {@code exp}
 * @param skew the allowed clock skew
 * @param verifier the verifying workload (the outermost audience)
 * @param asserting the pinned asserting workload
 * @param presenter the mTLS peer's leaf certificate (PEM)
 * @param bundles X.509 trust bundles (PEM CA certificates)
 * @param trustDomain the bundles' trust domain, when their certificates carry no SPIFFE ID
 * @param key the DVID signing key: PEM public key or certificate, JWK or JWKS
 * @param idpKey the IdP's RSA key for a proof: PEM, JWK or JWKS
 * @param idpIssuer the OAuth issuer the IdP key belongs to
 * @param rootKey the Anon-Mode root issuer key (base64url, as in the root {@code iss})
 * @param subject the Anon-Mode subject workload (the root audience)
 * @param lsvidIssuerKeys the trusted LSVID version 1 issuer keys
 * @param delegation whether an LSVID must carry a delegation
 * @param zkpMsg the OAuth {@code header.payload} a bare proof is for
 */
record VerifyOptions(
        VerificationProfile profile,
        Instant at,
        Duration originalMaxAge,
        Duration skew,
        SpiffeId verifier,
        SpiffeId asserting,
        Path presenter,
        List<Path> bundles,
        String trustDomain,
        Path key,
        Path idpKey,
        String idpIssuer,
        String rootKey,
        SpiffeId subject,
        List<Path> lsvidIssuerKeys,
        DelegationRule delegation,
        Path zkpMsg) {}
