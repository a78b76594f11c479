package io.spiffeidt.support.identity;

import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.X509Source;
import java.util.Objects;
import java.util.Optional;

/**
 * The X.509-SVID one request works with (docs/design.md "One SVID per request"). A hop signs its
 * layer with its SVID's key and then presents an SVID to the next workload over mTLS; ID-Mode and
 * LSVID bind the layer to the presenter's key, so the two must be the same SVID even when the
 * source rotates between them. While a scope is open on the thread (one per request, {@link
 * SvidPinFilter}) the first read of a source's SVID pins it: every later read in the request, the
 * signing keys of {@link WorkloadIdentity} and the client certificate of the outbound calls, gets
 * that SVID. Outside a scope every read is live, and so is a read on another thread: a request that
 * hands work with outbound calls to another thread must pin there too.
 *
 * <p>A scope pins one source, the first it is asked about; another source is read live.
 *
 * <p>Thread safety: the binding is per thread.
 */
public final class SvidPin {

    private static final ThreadLocal<SvidPin> CURRENT = new ThreadLocal<>();

    private X509Source source;
    private X509Svid svid;

    private SvidPin() {}

    /** Ends a scope. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Opens a scope on this thread; inside a scope already open it does nothing (the outer pin
     * holds until the outer scope ends).
     */
    public static Scope open() {
        if (CURRENT.get() != null) {
            return () -> {};
        }
        CURRENT.set(new SvidPin());
        return CURRENT::remove;
    }

    /** The SVID of {@code source} for this thread: pinned at the first read in a scope, else live. */
    public static X509Svid svid(X509Source source) {
        Objects.requireNonNull(source, "source");
        SvidPin pin = CURRENT.get();
        if (pin == null) {
            return source.getX509Svid();
        }
        if (pin.source == null) {
            X509Svid read = source.getX509Svid();
            pin.source = source;
            pin.svid = read;
            return read;
        }
        return pin.source == source ? pin.svid : source.getX509Svid();
    }

    /**
     * Within a scope, the SVID of {@code source} pinned for it ({@link #svid}, pinning it now if
     * this is its first read); outside a scope, empty.
     */
    public static Optional<X509Svid> pinned(X509Source source) {
        SvidPin pin = CURRENT.get();
        if (pin == null || (pin.source != null && pin.source != source)) {
            return Optional.empty();
        }
        return Optional.of(svid(source));
    }
}
