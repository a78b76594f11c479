package io.spiffeidt.support.identity;

import io.spiffe.svid.x509svid.X509Svid;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A value derived from this workload's current X.509-SVID (e.g. a mode's signing credentials),
 * derived again only when the SVID rotates; key and chain always come from the same SVID.
 * Thread-safe.
 *
 * @param <T> the derived value
 */
public final class SvidBound<T> implements Supplier<T> {

    private record Current<T>(X509Svid svid, T value) {}

    private final WorkloadIdentity identity;
    private final Function<X509Svid, T> derive;
    private final AtomicReference<Current<T>> current = new AtomicReference<>();

    public SvidBound(WorkloadIdentity identity, Function<X509Svid, T> derive) {
        this.identity = Objects.requireNonNull(identity, "identity");
        this.derive = Objects.requireNonNull(derive, "derive");
    }

    /** The value for the current SVID. */
    @Override
    public T get() {
        X509Svid svid = identity.svid();
        Current<T> c = current.get();
        if (c == null || c.svid() != svid) {
            c = new Current<>(svid, derive.apply(svid));
            current.set(c);
        }
        return c.value();
    }
}
