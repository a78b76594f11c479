package io.spiffeidt.support.identity;

import io.spiffe.exception.SocketEndpointAddressException;
import io.spiffe.exception.X509SourceException;
import io.spiffe.workloadapi.DefaultX509Source;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import java.time.Duration;
import java.util.Objects;

/**
 * Opens java-spiffe {@link DefaultX509Source}s on a Workload API socket, always with an init
 * timeout (the library waits forever by default).
 *
 * <p>Thread safety: immutable; thread safe.
 */
public final class WorkloadApiX509SourceFactory implements X509SourceFactory {

    private final String socket;
    private final Duration initTimeout;

    /**
     * @param socket e.g. {@code unix:/tmp/agent.sock}; {@code null} = the environment variable
     *     {@code SPIFFE_ENDPOINT_SOCKET}
     * @param initTimeout how long to wait for the first SVID
     */
    public WorkloadApiX509SourceFactory(String socket, Duration initTimeout) {
        this.socket = socket;
        this.initTimeout = Objects.requireNonNull(initTimeout, "initTimeout");
    }

    @Override
    public X509Source open() {
        return open(initTimeout);
    }

    /** Waits for the first SVID at most the shorter of {@code maxWait} and the init timeout. */
    @Override
    public X509Source open(Duration maxWait) {
        Duration wait = maxWait.compareTo(initTimeout) < 0 ? maxWait : initTimeout;
        DefaultX509Source.X509SourceOptions.Builder options =
                DefaultX509Source.X509SourceOptions.builder().initTimeout(wait);
        if (socket != null && !socket.isBlank()) {
            options.spiffeSocketPath(socket);
        }
        try {
            return DefaultX509Source.newSource(options.build());
        } catch (SocketEndpointAddressException e) {
            throw new IllegalStateException("invalid Workload API socket address", e);
        } catch (X509SourceException | RuntimeException e) {
            throw new AssertionException(ErrorCode.UPSTREAM_UNAVAILABLE, "Workload API unavailable", e);
        }
    }
}
