package io.spiffeidt.core.idmode;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.internal.X509Svids;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bounded memo of certificate chains that passed {@link X509Svids#validate} (spec/id-mode.md
 * "Verification", step 3a), so that the few SVIDs of a deployment are PKIX-validated once per
 * bundle instead of once per request.
 *
 * <p>Sound because the outcome of that validation depends only on the chain bytes (the key), the
 * bundle's roots (checked for equality on every hit) and the time, which is re-checked on every
 * hit against the window in which every certificate of the chain is valid. Only successes are
 * kept; a full memo is cleared.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class ValidatedChains {

    private record Entry(TrustBundle bundle, SpiffeId id, Instant notBefore, Instant notAfter) {}

    private final int capacity;
    private final ConcurrentHashMap<List<String>, Entry> entries;

    ValidatedChains(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.capacity = capacity;
        this.entries = new ConcurrentHashMap<>();
    }

    /**
     * The SPIFFE ID of a valid chain, validating it unless a previous validation against an equal
     * bundle still covers {@code at}.
     *
     * @throws io.spiffeidt.core.AssertionException as {@link X509Svids#validate}
     */
    SpiffeId validate(List<X509Certificate> chain, List<String> der, TrustBundle bundle, Instant at, int layer) {
        if (capacity == 0) {
            return X509Svids.validate(chain, bundle, at, layer);
        }
        Entry e = entries.get(der);
        if (e != null
                && !at.isBefore(e.notBefore())
                && !at.isAfter(e.notAfter())
                && e.bundle().equals(bundle)) {
            return e.id();
        }
        SpiffeId id = X509Svids.validate(chain, bundle, at, layer);
        Instant notBefore = Instant.MIN;
        Instant notAfter = Instant.MAX;
        for (X509Certificate c : chain) {
            Instant nb = c.getNotBefore().toInstant();
            Instant na = c.getNotAfter().toInstant();
            notBefore = nb.isAfter(notBefore) ? nb : notBefore;
            notAfter = na.isBefore(notAfter) ? na : notAfter;
        }
        if (entries.size() >= capacity) {
            entries.clear();
        }
        entries.put(der, new Entry(bundle, id, notBefore, notAfter));
        return id;
    }

    int size() {
        return entries.size();
    }
}
