package io.spiffeidt.core.internal;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TrustBundle;
import io.spiffeidt.core.memo.Expiry;
import io.spiffeidt.core.memo.Memo;
import io.spiffeidt.core.memo.Memos;
import java.security.Provider;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * The memo of certificate chains that passed {@link X509Svids#validate} (ID-Mode artifacts,
 * LSVID {@code x5c}), so that the few SVIDs of a deployment are path-validated once per bundle
 * instead of once per request: a named {@link Memo} ({@code lsvid-chain}, {@code idmode-chain})
 * with its key rule. Not API.
 *
 * <p>Sound because the outcome of that validation depends only on the chain bytes (the key), the
 * bundle's roots (checked for equality on every hit) and the time, which is re-checked on every
 * hit against the window in which every certificate of the chain is valid. Only successes are
 * kept.
 *
 * <p>Thread safety: safe for concurrent use.
 */
public final class ValidatedChains {

    private record Entry(TrustBundle bundle, SpiffeId id, Instant notBefore, Instant notAfter) {}

    private final Memo<Object, Entry> memo;

    /** The memo named {@code name} of {@code memos}. */
    public ValidatedChains(Memos memos, String name) {
        // the validity window is checked against the verifier's time on every hit
        this.memo = memos.memo(name, Expiry.ttl());
    }

    /**
     * The SPIFFE ID of a valid chain, validating it unless a previous validation against an equal
     * bundle still covers {@code at}. {@code der} identifies the chain's exact bytes (any value with
     * content equality, e.g. a list of base64 strings or of {@link java.nio.ByteBuffer}s).
     *
     * @throws io.spiffeidt.core.AssertionException as {@link X509Svids#validate}
     */
    public SpiffeId validate(List<X509Certificate> chain, Object der, TrustBundle bundle, Instant at, int layer) {
        return validate(chain, der, bundle, at, layer, null);
    }

    /**
     * As {@link #validate(List, Object, TrustBundle, Instant, int)}, with the certificates'
     * signatures verified by {@code provider} ({@code null}: the JDK's provider list).
     */
    public SpiffeId validate(
            List<X509Certificate> chain, Object der, TrustBundle bundle, Instant at, int layer, Provider provider) {
        return validate(chain, der, new X509Svids.Anchors(bundle, provider, null), at, layer);
    }

    /**
     * As {@link #validate(List, Object, TrustBundle, Instant, int, Provider)}, against {@code
     * anchors} (the bundle, the provider and the roots' keys as its key objects).
     */
    public SpiffeId validate(
            List<X509Certificate> chain, Object der, X509Svids.Anchors anchors, Instant at, int layer) {
        TrustBundle bundle = anchors.bundle();
        if (!memo.remembers()) {
            return X509Svids.validate(chain, anchors, at, layer);
        }
        Entry e = memo.get(
                der,
                known -> !at.isBefore(known.notBefore())
                        && !at.isAfter(known.notAfter())
                        && known.bundle().equals(bundle));
        if (e != null) {
            return e.id();
        }
        SpiffeId id = X509Svids.validate(chain, anchors, at, layer);
        Instant notBefore = Instant.MIN;
        Instant notAfter = Instant.MAX;
        for (X509Certificate c : chain) {
            Instant nb = c.getNotBefore().toInstant();
            Instant na = c.getNotAfter().toInstant();
            notBefore = nb.isAfter(notBefore) ? nb : notBefore;
            notAfter = na.isBefore(notAfter) ? na : notAfter;
        }
        memo.put(der, new Entry(bundle, id, notBefore, notAfter));
        return id;
    }

    /** Whether this memo remembers anything (off: every {@link #validate} validates). */
    public boolean remembers() {
        return memo.remembers();
    }

    /** How many chains are remembered. */
    public int size() {
        return memo.size();
    }
}
