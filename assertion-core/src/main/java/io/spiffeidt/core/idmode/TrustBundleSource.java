package io.spiffeidt.core.idmode;

import io.spiffeidt.core.TrustBundle;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where the verifier finds the X.509 bundle of a signer's trust domain (docs/formats/id-mode.md
 * "Verification", step 3a). A workload adapts its Workload API bundle source; tests use {@link
 * #of}.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface TrustBundleSource {

    /** The bundle of {@code trustDomain} (a lower-case name), or empty when none is known. */
    Optional<TrustBundle> bundleFor(String trustDomain);

    /**
     * A fixed set of bundles, one per trust domain.
     *
     * @throws IllegalArgumentException when two bundles name the same trust domain
     */
    static TrustBundleSource of(Collection<TrustBundle> bundles) {
        Map<String, TrustBundle> map = new HashMap<>();
        for (TrustBundle b : bundles) {
            if (map.put(b.trustDomain().toLowerCase(Locale.ROOT), b) != null) {
                throw new IllegalArgumentException("two bundles for trust domain " + b.trustDomain());
            }
        }
        Map<String, TrustBundle> fixed = Map.copyOf(map);
        return td -> Optional.ofNullable(fixed.get(td));
    }

    /** A single bundle. */
    static TrustBundleSource of(TrustBundle bundle) {
        return of(java.util.List.of(bundle));
    }
}
