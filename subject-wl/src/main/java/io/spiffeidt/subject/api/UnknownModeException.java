package io.spiffeidt.subject.api;

/** A path prefix that names no mode (answered with 404). */
public class UnknownModeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnknownModeException() {
        super("unknown mode; use dvid, id-mode, anon-mode, lsvid, mtls-only or bearer-forward");
    }
}
