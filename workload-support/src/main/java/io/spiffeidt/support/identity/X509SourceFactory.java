package io.spiffeidt.support.identity;

import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.support.client.ConnectionStrategy;
import java.time.Duration;

/**
 * Opens a new X.509 source. In production a java-spiffe {@code DefaultX509Source} on the
 * configured Workload API socket (see {@link WorkloadApiX509SourceFactory}); tests supply sources
 * built from in-memory certificates. Used for the long-lived source bean and for {@link
 * ConnectionStrategy#NON_POOLED_FRESH_SOURCE}, which opens (and closes) one source per request.
 *
 * <p>Thread safety: implementations must be thread safe.
 */
@FunctionalInterface
public interface X509SourceFactory {

    /**
     * Opens a source that is ready (holds an SVID and bundle). The caller closes it.
     *
     * @throws io.spiffeidt.core.AssertionException UPSTREAM_UNAVAILABLE when the Workload API cannot
     *     be reached in time
     */
    X509Source open();

    /**
     * As {@link #open()}, waiting at most {@code maxWait} for the first SVID (a request's remaining
     * deadline): where the Workload API does not answer, a request fails within its own time, not the
     * start-up's longer wait. Implementations that cannot bound the wait open as {@link #open()} does.
     *
     * @throws io.spiffeidt.core.AssertionException UPSTREAM_UNAVAILABLE when the Workload API cannot
     *     be reached in time
     */
    default X509Source open(Duration maxWait) {
        return open();
    }
}
