package io.spiffeidt.support.server;

/**
 * A request this workload will not (or no longer) serve for a reason of capacity or time, never of
 * the document: 503 {@code OVERLOADED} with {@code Retry-After}, or 504 {@code DEADLINE_EXCEEDED}.
 * Relayed unchanged from a downstream workload by the client, so the user sees what happened where.
 */
public class RequestRefusedException extends RuntimeException {

    /** The code of a refusal for capacity. */
    public static final String OVERLOADED = "OVERLOADED";

    /** The code of a refusal for time. */
    public static final String DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED";

    private final int status;
    private final String code;

    private RequestRefusedException(int status, String code, String detail) {
        super(detail);
        this.status = status;
        this.code = code;
    }

    /** 503: no capacity now; try again after {@link #RETRY_AFTER_SECONDS} s. */
    public static RequestRefusedException overloaded(String detail) {
        return new RequestRefusedException(503, OVERLOADED, detail);
    }

    /** 504: the request's deadline passed (here or downstream). */
    public static RequestRefusedException deadlineExceeded(String detail) {
        return new RequestRefusedException(504, DEADLINE_EXCEEDED, detail);
    }

    /** The {@code Retry-After} of an overload answer, in seconds. */
    public static final int RETRY_AFTER_SECONDS = 1;

    /** 503 or 504. */
    public int status() {
        return status;
    }

    /** {@value #OVERLOADED} or {@value #DEADLINE_EXCEEDED}. */
    public String code() {
        return code;
    }
}
