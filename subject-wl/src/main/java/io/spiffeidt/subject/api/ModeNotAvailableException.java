package io.spiffeidt.subject.api;

import io.spiffeidt.core.Mode;

/** A mode whose flow this build does not offer yet (answered with 501). */
public class ModeNotAvailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ModeNotAvailableException(Mode mode) {
        super("mode " + mode.pathSegment() + " is not implemented yet");
    }
}
