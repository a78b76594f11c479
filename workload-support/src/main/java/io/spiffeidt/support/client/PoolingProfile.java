package io.spiffeidt.support.client;

/**
 * Sets the {@link ConnectionStrategy} of every downstream at once (docs/design.md "Connections").
 *
 * <p>Thread safety: immutable.
 */
public enum PoolingProfile {
    /** The thesis' Table 7 (the default); cells not pooled there use {@link ConnectionStrategy#NON_POOLED_FRESH_SOURCE}. */
    THESIS,
    /** Every downstream {@link ConnectionStrategy#POOLED}. */
    POOLED,
    /** Every downstream {@link ConnectionStrategy#NON_POOLED}. */
    NON_POOLED,
    /** Every downstream {@link ConnectionStrategy#NON_POOLED_FRESH_SOURCE}. */
    FRESH_SOURCE
}
