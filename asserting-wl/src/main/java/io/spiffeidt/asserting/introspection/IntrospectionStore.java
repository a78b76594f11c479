package io.spiffeidt.asserting.introspection;

import java.time.Instant;
import java.util.Optional;

/**
 * What the asserting workload remembers of the documents it minted, for introspection. The
 * in-memory implementation is the default; a JDBC implementation serves replicated deployments.
 *
 * @param <V> the remembered value
 */
public interface IntrospectionStore<V> {

    /** Remembers {@code value} under {@code key} until {@code expiresAt}. */
    void put(String key, V value, Instant expiresAt);

    /** The value under {@code key}, unless unknown or expired. */
    Optional<V> get(String key);

    /** Replaces the value of a live entry (e.g. a lazily made proof); no effect when absent. */
    void replace(String key, V value);
}
