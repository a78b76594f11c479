package io.spiffeidt.support.server;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Admits a request only while the workload has room and the request has time (docs/operations.md
 * "Overload and deadlines"): at most {@code max-concurrent} requests run, {@code queue-size} more
 * wait up to {@code queue-wait} for a slot, and any other gets 503 {@code OVERLOADED} with {@code
 * Retry-After} at once, before its body is read. The request's {@link Deadline} (its budget, or less
 * when {@value Deadline#HEADER} says so) is bound to the thread while it runs; a request whose
 * deadline has passed when it would start gets 504 {@code DEADLINE_EXCEEDED} and does nothing. A
 * malformed header is 400 {@code MALFORMED}. Actuator paths are never limited.
 *
 * <p>Thread safety: thread safe.
 */
public final class AdmissionFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(AdmissionFilter.class);

    private final AdmissionProperties settings;
    private final Semaphore slots;
    private final AtomicInteger waiting = new AtomicInteger();

    public AdmissionFilter(AdmissionProperties settings) {
        this.settings = settings;
        this.slots = new Semaphore(settings.maxConcurrent(), true);
        log.info(
                "admission: {} requests served at once, {} waiting at most {} ms",
                settings.maxConcurrent(),
                settings.queueSize(),
                settings.queueWait().toMillis());
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI();
        return path.startsWith("/actuator/") || path.equals("/actuator");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long budget = settings.requestTimeout().toMillis();
        String header = request.getHeader(Deadline.HEADER);
        if (header != null) {
            try {
                budget = Math.min(budget, Deadline.parseHeader(header));
            } catch (IllegalArgumentException e) {
                write(response, 400, "MALFORMED", e.getMessage(), false);
                return;
            }
        }
        Deadline deadline = Deadline.afterMillis(budget);
        if (deadline.passed()) {
            write(response, 504, RequestRefusedException.DEADLINE_EXCEEDED, "no time left for this request", false);
            return;
        }
        if (!acquire(deadline)) {
            if (deadline.passed()) {
                write(
                        response,
                        504,
                        RequestRefusedException.DEADLINE_EXCEEDED,
                        "the deadline passed while queued",
                        false);
            } else {
                log.debug("overloaded: {} running, {} waiting", settings.maxConcurrent(), waiting.get());
                write(response, 503, RequestRefusedException.OVERLOADED, "the workload is at capacity", true);
            }
            return;
        }
        Deadline.bind(deadline);
        try {
            chain.doFilter(request, response);
        } finally {
            Deadline.unbind();
            slots.release();
        }
    }

    private boolean acquire(Deadline deadline) {
        if (slots.tryAcquire()) {
            return true;
        }
        if (waiting.incrementAndGet() > settings.queueSize()) {
            waiting.decrementAndGet();
            return false;
        }
        try {
            long wait = Math.min(settings.queueWait().toMillis(), deadline.remainingMillis());
            return wait > 0 && slots.tryAcquire(wait, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** Requests waiting for a slot now (for tests and metrics). */
    int waiting() {
        return waiting.get();
    }

    /** Requests running now (for tests and metrics). */
    int running() {
        return settings.maxConcurrent() - slots.availablePermits();
    }

    static void write(HttpServletResponse response, int status, String code, String detail, boolean retryAfter)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/problem+json");
        if (retryAfter) {
            response.setHeader("Retry-After", Integer.toString(RequestRefusedException.RETRY_AFTER_SECONDS));
        }
        String title =
                switch (status) {
                    case 503 -> "Service Unavailable";
                    case 504 -> "Gateway Timeout";
                    default -> "Bad Request";
                };
        String body = "{\"type\":\"urn:spiffeidt:problem:" + code.toLowerCase(java.util.Locale.ROOT) + "\",\"title\":\""
                + title + "\",\"status\":" + status + ",\"detail\":\"" + detail + "\",\"code\":\"" + code + "\"}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        response.flushBuffer();
    }
}
