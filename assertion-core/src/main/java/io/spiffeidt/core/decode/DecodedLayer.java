package io.spiffeidt.core.decode;

import java.time.Instant;
import java.util.Map;

/**
 * One layer of a decoded document, as a person reads it (not verified).
 *
 * <p>Thread safety: immutable.
 *
 * @param index 0 for the root (the asserting workload's layer), counting outwards
 * @param role {@code document} (DVID), {@code root} or {@code hop} (ID-Mode, Anon-Mode), {@code
 *     base} or {@code extension} (LSVID)
 * @param issuer {@code iss} (a SPIFFE ID; in Anon-Mode the layer's public key, base64url), or {@code
 *     null}
 * @param subject {@code sub} (DVID, LSVID base), or {@code null}
 * @param audience {@code aud}, or {@code null}
 * @param dpa the delegated principal authority (OAuth issuer), or {@code null} in layers without
 *     delegation
 * @param dpr the delegated principal (OAuth subject), or {@code null}
 * @param issuedAt {@code iat}, or {@code null}
 * @param expiresAt {@code exp}, or {@code null}
 * @param anonymous whether the layer names no workload (Anon-Mode: its issuer is only a key and it
 *     carries no {@code iid}); {@code false} in the other formats
 * @param signatureAlgorithm the signature algorithm in words
 * @param signatureBytes the size of the signature as sent, in bytes; -1 when its segment is not
 *     base64url (only from {@link DocumentDecoder#decodeLeniently})
 * @param otherClaims every other claim of the layer, as decoded (never key material: Anon-Mode's
 *     {@code s} is not a claim); LSVID adds facts about the layer's keys ({@code issuerKeyBytes},
 *     {@code subjectKeyBytes}, {@code subjectCertificates}) and its {@code ver}
 * @param payloadDecoded whether the layer's payload decoded; {@code false} only from {@link
 *     DocumentDecoder#decodeLeniently}, and then every claim field is {@code null}
 */
public record DecodedLayer(
        int index,
        String role,
        String issuer,
        String subject,
        String audience,
        String dpa,
        String dpr,
        Instant issuedAt,
        Instant expiresAt,
        boolean anonymous,
        String signatureAlgorithm,
        int signatureBytes,
        Map<String, Object> otherClaims,
        boolean payloadDecoded) {

    /** Copies the map. */
    public DecodedLayer {
        otherClaims = otherClaims == null
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(otherClaims));
    }
}
