package io.spiffeidt.support.hop;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.util.Objects;

/**
 * What a hop uses beyond its own keys: the metrics its verbs record into, the clients of the
 * downstream calls a verification makes (DVID's validation, the introspections) and the IdP keys an
 * introspection proof is checked under (the ones this workload resolves itself, never an answer's).
 *
 * <p>Thread safety: immutable.
 *
 * @param clients {@code null} for a hop that makes no call (unit tests)
 * @param idpKeys {@code null} for a hop that checks no proof (unit tests)
 */
public record HopServices(OperationMetrics metrics, DownstreamClients clients, IdpKeyResolver idpKeys) {

    /** Requires the metrics. */
    public HopServices {
        Objects.requireNonNull(metrics, "metrics");
    }

    /** Metrics into a private registry, no downstream: a hop used outside a workload. */
    public static HopServices standalone() {
        return new HopServices(new OperationMetrics(new SimpleMeterRegistry()), null, null);
    }

    /** The clients, or {@link IllegalStateException} for a hop without any. */
    public DownstreamClients requireClients() {
        if (clients == null) {
            throw new IllegalStateException("this hop has no downstream clients");
        }
        return clients;
    }

    /** The IdP keys, or {@link IllegalStateException} for a hop without any. */
    public IdpKeyResolver requireIdpKeys() {
        if (idpKeys == null) {
            throw new IllegalStateException("this hop has no IdP keys");
        }
        return idpKeys;
    }
}
