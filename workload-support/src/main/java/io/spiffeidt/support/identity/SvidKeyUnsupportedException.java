package io.spiffeidt.support.identity;

import io.spiffeidt.core.Mode;

/**
 * A request for a mode this workload cannot serve with its current SVID key (see {@link SvidKeys}):
 * answered 501 with the code {@value #CODE}. It is this deployment's limit, not the caller's fault.
 */
public class SvidKeyUnsupportedException extends RuntimeException {

    /** The problem code. */
    public static final String CODE = "SVID_KEY_UNSUPPORTED";

    private final transient Mode mode;

    /**
     * @param mode the mode that needs an EC P-256 SVID key
     * @param keyDescription what the key is ({@link SvidKeys#describe})
     */
    public SvidKeyUnsupportedException(Mode mode, String keyDescription) {
        super("this workload's SVID key is " + keyDescription + "; " + mode.pathSegment()
                + " signs with the SVID key and needs EC P-256 (ES256)");
        this.mode = mode;
    }

    /** The mode that cannot be served. */
    public Mode mode() {
        return mode;
    }
}
