package io.spiffeidt.core.x509;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.internal.X509Svids;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * Parses and validates X.509-SVID chains exactly as the ID-Mode and LSVID verifiers do (the chain
 * of an {@code x5c}, docs/formats/common.md): PKIX to the trust bundle's roots, revocation off, and
 * the SPIFFE leaf rules (not a CA, digitalSignature only, one URI SAN in the bundle's trust
 * domain). For what needs the check alone, such as the chain validation benchmark.
 *
 * <p>Thread safety: stateless.
 */
public final class X509SvidChains {

    private X509SvidChains() {}

    /**
     * Parses one DER certificate or several concatenated, leaf first.
     *
     * @throws AssertionException {@link ErrorCode#MALFORMED} when the bytes hold no certificate
     */
    public static List<X509Certificate> parse(byte[] der) {
        return X509Svids.parseDer(der);
    }

    /**
     * Validates {@code chain} (leaf first) against {@code bundle} at {@code at} and returns the
     * leaf's SPIFFE ID.
     *
     * @param provider the JCA provider that verifies the certificates' signatures, or {@code null}
     *     for the JDK's provider list
     * @throws AssertionException {@link ErrorCode#UNTRUSTED_KEY} when the chain or its leaf fails
     *     any rule
     */
    public static SpiffeId validate(List<X509Certificate> chain, TrustBundle bundle, Instant at, Provider provider) {
        return X509Svids.validate(chain, bundle, at, 0, provider);
    }
}
