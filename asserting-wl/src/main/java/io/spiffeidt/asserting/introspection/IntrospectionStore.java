package io.spiffeidt.asserting.introspection;

import java.time.Instant;
import java.util.Optional;

/**
 * What the asserting workload remembers of the documents it minted, for introspection. The
 * in-memory implementation is the default; a JDBC implementation serves replicated deployments. Each
 * record has an owner, the user its document was minted for: a store bounds each owner's records and
 * drops an owner's own oldest first, so one user's mints never push out another user's records
 * (docs/operations.md "The introspection store").
 *
 * @param <V> the remembered value
 */
public interface IntrospectionStore<V> {

    /** Remembers {@code value} under {@code key}, a record of {@code owner}, until {@code expiresAt}. */
    void put(String key, String owner, V value, Instant expiresAt);

    /** {@link #put(String, String, Object, Instant)} of a record that is its own owner (its key). */
    default void put(String key, V value, Instant expiresAt) {
        put(key, key, value, expiresAt);
    }

    /** The value under {@code key}, unless unknown or expired. */
    Optional<V> get(String key);

    /** Replaces the value of a live entry (e.g. a lazily made proof); no effect when absent. */
    void replace(String key, V value);
}
