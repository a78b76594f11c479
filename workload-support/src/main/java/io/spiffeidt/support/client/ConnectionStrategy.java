package io.spiffeidt.support.client;

/**
 * How an outbound mTLS client connects to one downstream (docs/design.md "Connections").
 *
 * <p>Thread safety: immutable.
 */
public enum ConnectionStrategy {
    /** Reuses kept-alive TLS connections from a pool. */
    POOLED,
    /** New TCP connection and full TLS handshake per request; no keep-alive, no session resumption. */
    NON_POOLED,
    /**
     * As {@link #NON_POOLED}, plus a fresh Workload API X.509 source per request (what the original
     * code did; the thesis' "mTLS client setup").
     */
    NON_POOLED_FRESH_SOURCE;

    /** The metric tag spelling: {@code pooled}, {@code non-pooled}, {@code non-pooled-fresh-source}. */
    public String tagValue() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
