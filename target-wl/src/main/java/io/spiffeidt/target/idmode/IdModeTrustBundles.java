package io.spiffeidt.target.idmode;

import io.spiffe.bundle.x509bundle.X509Bundle;
import io.spiffe.exception.BundleNotFoundException;
import io.spiffe.spiffeid.TrustDomain;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.idmode.TrustBundleSource;
import java.util.ArrayList;
import java.util.Optional;

/**
 * The X.509 bundles of the Workload API source, read on every lookup (bundles rotate), for the
 * ID-Mode verifier's chain checks (spec/id-mode.md "Verification", step 3a).
 */
public final class IdModeTrustBundles implements TrustBundleSource {

    private final X509Source source;

    public IdModeTrustBundles(X509Source source) {
        this.source = source;
    }

    @Override
    public Optional<TrustBundle> bundleFor(String trustDomain) {
        try {
            X509Bundle bundle = source.getBundleForTrustDomain(TrustDomain.parse(trustDomain));
            if (bundle.getX509Authorities().isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new TrustBundle(trustDomain, new ArrayList<>(bundle.getX509Authorities())));
        } catch (BundleNotFoundException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
