package io.spiffeidt.core;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * The X.509 roots of one trust domain, as the SPIFFE Workload API hands them out.
 *
 * <p>Thread safety: immutable (certificates are immutable objects).
 *
 * @param trustDomain the trust domain name (e.g. {@code example.org})
 * @param roots the root (CA) certificates; at least one
 */
public record TrustBundle(String trustDomain, List<X509Certificate> roots) {
    /** Copies the roots. */
    public TrustBundle {
        Objects.requireNonNull(trustDomain, "trustDomain");
        roots = List.copyOf(roots);
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("a trust bundle needs at least one root");
        }
    }
}
