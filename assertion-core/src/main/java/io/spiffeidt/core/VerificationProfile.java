package io.spiffeidt.core;

/**
 * Which set of checks a verifier runs (docs/formats/common.md "Verification profiles").
 *
 * <p>Thread safety: immutable.
 */
public enum VerificationProfile {
    /** Every check in the document's spec (the default). */
    STRICT,
    /**
     * Accepts documents of the original Go proof of concept: relaxes only the points each spec
     * lists; never accepts an unanchored key, an invalid signature or a broken chain.
     */
    ORIGINAL_COMPATIBLE
}
