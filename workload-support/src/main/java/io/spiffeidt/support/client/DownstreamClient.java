package io.spiffeidt.support.client;

import com.nimbusds.jose.util.JSONObjectUtils;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.metrics.ServerTiming;
import io.spiffeidt.support.metrics.WireBytes;
import io.spiffeidt.support.server.Deadline;
import io.spiffeidt.support.server.RequestRefusedException;
import io.spiffeidt.support.server.UnreachableException;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * An mTLS JSON client for one (mode, downstream) pair, built by {@link DownstreamClients}. The
 * server must present exactly the configured SPIFFE ID of the downstream.
 *
 * <p>Failures: a problem detail with a {@code code} property from the closed set is rethrown as
 * {@link AssertionException} with that code ("&lt;role&gt; answered &lt;code&gt;"), so a verdict of a
 * downstream is relayed; anything else (connect failure, TLS failure, timeout, 5xx or 4xx without a
 * known code, unreadable response) is {@link ErrorCode#UPSTREAM_UNAVAILABLE} with the I/O cause
 * attached (a {@link java.net.ConnectException} cause marks "connection refused"). A downstream's 503
 * {@code UPSTREAM_UNAVAILABLE} is relayed with an {@link UnreachableException} cause, so it stays 503
 * here (docs/formats/common.md §6). A connection closed without a byte of answer (a pooled one the
 * downstream closed while it looked alive) costs one more try of a request that cannot change
 * anything twice ({@link #repeatable}), never of a deposit without its {@code Idempotency-Key}.
 *
 * <p>Timing: {@link #post(Operation, String, Object, Class)} times the whole call, connection and
 * answer, as the given {@link Operation} (a {@code *_call}: the request's path as the metrics and
 * {@code Server-Timing} show it); the untimed {@link #post(String, Object, Class)} and {@link #get}
 * are for calls that are no operation of their own (a key set fetch) or that the caller times as
 * one (an introspection inside {@link io.spiffeidt.support.oauth.ProofCheck}). The setup of {@link
 * ConnectionStrategy#NON_POOLED_FRESH_SOURCE} is timed by {@link DownstreamClients}, as {@code
 * mtls_client_setup}.
 *
 * <p>Bytes: every call that reached a connection records its bytes on the wire and the size of the
 * document it carried, in its {@link DocumentRequest} or, for a baseline, in a header ({@code
 * spiffeidt.http.client.bytes}, {@code
 * spiffeidt.http.client.document.size}, by the call's path) and adds them to the request's {@code
 * Wire-Bytes} header ({@link WireBytes}) with the downstream's own entries.
 *
 * <p>Thread safety: thread safe.
 */
public final class DownstreamClient {

    private static final int MAX_ERROR_BODY = 64 * 1024;
    private static final Logger log = LoggerFactory.getLogger(DownstreamClient.class);

    /** Runs one exchange on a transport chosen by the strategy. */
    interface Transport {
        <T> T call(RestCall<T> call);
    }

    /** One exchange on a RestClient. */
    @FunctionalInterface
    interface RestCall<T> {
        T on(RestClient client);
    }

    private final Mode mode;
    private final Role downstream;
    private final ConnectionStrategy strategy;
    private final Transport transport;
    private final long hopMarginMillis;
    private final OperationMetrics metrics;

    DownstreamClient(
            Mode mode,
            Role downstream,
            ConnectionStrategy strategy,
            Transport transport,
            Duration hopMargin,
            OperationMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.downstream = Objects.requireNonNull(downstream, "downstream");
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.transport = Objects.requireNonNull(transport, "transport");
        this.hopMarginMillis = hopMargin.toMillis();
    }

    /**
     * POSTs {@code jsonBody} as JSON to {@code path} (relative to the downstream's base URL) and
     * reads the JSON response as {@code responseType}.
     *
     * @throws AssertionException the downstream's code, or UPSTREAM_UNAVAILABLE
     */
    public <T> T post(String path, Object jsonBody, Class<T> responseType) {
        Objects.requireNonNull(responseType, "responseType");
        return exchange(
                Call.of(HttpMethod.POST, path, jsonBody, responseType == Void.class, r -> r.bodyTo(responseType)));
    }

    /**
     * {@link #post(String, Object, Class)}, timed as {@code operation} of this client's mode (outcome:
     * success, the relayed code, or error).
     *
     * @throws AssertionException the downstream's code, or UPSTREAM_UNAVAILABLE
     */
    public <T> T post(Operation operation, String path, Object jsonBody, Class<T> responseType) {
        return post(operation, path, jsonBody, responseType, Optional.empty());
    }

    /**
     * {@link #post(Operation, String, Object, Class)} with the deposit's {@code Idempotency-Key}
     * header, when there is one (docs/formats/common.md "Idempotent deposits").
     *
     * @throws AssertionException the downstream's code, or UPSTREAM_UNAVAILABLE
     */
    public <T> T post(
            Operation operation,
            String path,
            Object jsonBody,
            Class<T> responseType,
            Optional<IdempotencyKey> idempotencyKey) {
        return post(operation, path, jsonBody, responseType, idempotencyKey, Map.of(), -1);
    }

    /**
     * {@link #post(Operation, String, Object, Class, Optional)} with request headers that carry what
     * a baseline sends instead of a body document (the Txn-Token, the forwarded bearer token, the
     * user header of mtls-only); never logged.
     *
     * @param headerDocument the characters of the document {@code headers} carry (the Txn-Token, the
     *     access token without its scheme), counted as the request's document; -1 when they carry none
     * @throws AssertionException the downstream's code, or UPSTREAM_UNAVAILABLE
     */
    public <T> T post(
            Operation operation,
            String path,
            Object jsonBody,
            Class<T> responseType,
            Optional<IdempotencyKey> idempotencyKey,
            Map<String, String> headers,
            long headerDocument) {
        Objects.requireNonNull(responseType, "responseType");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(headers, "headers");
        return metrics.time(
                mode,
                operation,
                () -> exchange(new Call<>(
                        HttpMethod.POST,
                        path,
                        jsonBody,
                        idempotencyKey,
                        headers,
                        headerDocument,
                        responseType == Void.class,
                        r -> r.bodyTo(responseType))));
    }

    /**
     * As {@link #post(String, Object, Class)}, for generic response types (e.g. {@code List<Foo>}).
     *
     * @throws AssertionException the downstream's code, or UPSTREAM_UNAVAILABLE
     */
    public <T> T post(String path, Object jsonBody, ParameterizedTypeReference<T> responseType) {
        Objects.requireNonNull(responseType, "responseType");
        return exchange(Call.of(HttpMethod.POST, path, jsonBody, false, r -> r.bodyTo(responseType)));
    }

    /**
     * GETs {@code path} (relative to the downstream's base URL) and reads the response as {@code
     * responseType} ({@code String} for the body's text).
     *
     * @throws AssertionException the downstream's code, or UPSTREAM_UNAVAILABLE
     */
    public <T> T get(String path, Class<T> responseType) {
        Objects.requireNonNull(responseType, "responseType");
        return exchange(Call.of(HttpMethod.GET, path, null, false, r -> r.bodyTo(responseType)));
    }

    @FunctionalInterface
    private interface BodyReader<T> {
        T read(RestClient.RequestHeadersSpec.ConvertibleClientHttpResponse response) throws IOException;
    }

    /**
     * One request to the downstream: what {@link #exchange} sends and how it reads the answer.
     *
     * @param headers request headers that carry a baseline's document instead of the body (never logged)
     * @param headerDocument the characters of the document {@code headers} carry; -1 when they carry none
     * @param noBody whether a 2xx answer has no body to read ({@code Void})
     */
    private record Call<T>(
            HttpMethod method,
            String path,
            Object jsonBody,
            Optional<IdempotencyKey> idempotencyKey,
            Map<String, String> headers,
            long headerDocument,
            boolean noBody,
            BodyReader<T> reader) {

        /** A request without an idempotency key and without document headers. */
        static <T> Call<T> of(HttpMethod method, String path, Object jsonBody, boolean noBody, BodyReader<T> reader) {
            return new Call<>(method, path, jsonBody, Optional.empty(), Map.of(), -1, noBody, reader);
        }
    }

    private <T> T exchange(Call<T> call) {
        long callStart = System.nanoTime();
        Optional<Deadline> deadline = Deadline.current();
        // the downstream gets what is left less the time its answer needs to come back
        long forward = deadline.map(d -> d.remainingMillis() - hopMarginMillis).orElse(-1L);
        if (deadline.isPresent() && forward <= 0) {
            throw RequestRefusedException.deadlineExceeded("no time left to call " + downstream.workloadName());
        }
        ExchangeBytes bytes = ExchangeBytes.begin();
        try {
            try {
                return attempt(call, callStart, forward);
            } catch (RestClientException | IllegalStateException e) {
                if (!closedWithoutAnswer(e)
                        || !repeatable(call.method(), call.path(), call.idempotencyKey())
                        || deadline.map(Deadline::passed).orElse(false)) {
                    throw e;
                }
                // the downstream closed the connection without a byte of answer: a pooled connection it
                // had closed (a restart) that looked alive, or a process going down; a request that cannot
                // change anything twice is sent once more, on a connection of its own from the pool
                log.info(
                        "{} closed the connection without an answer to {}: sent once more",
                        downstream.workloadName(),
                        call.path());
                return attempt(call, callStart, forward);
            }
        } catch (AssertionException | RequestRefusedException e) {
            throw e;
        } catch (RestClientException | IllegalStateException e) {
            if (deadline.isPresent() && (deadline.get().passed() || timedOut(e))) {
                throw RequestRefusedException.deadlineExceeded(
                        downstream.workloadName() + " did not answer within the request's deadline");
            }
            throw new AssertionException(
                    ErrorCode.UPSTREAM_UNAVAILABLE,
                    downstream.workloadName() + " unavailable (" + rootName(e) + ")",
                    e);
        } finally {
            bytes.end();
            if (bytes.counted()) {
                // a baseline's document travels in a header (the caller says its size), the others' in the body
                long document = call.jsonBody() instanceof DocumentRequest d && d.token() != null
                        ? d.characters()
                        : call.headerDocument();
                metrics.recordWireBytes(
                        mode, downstream.workloadName(), call.path(), bytes.sent(), bytes.received(), document);
                WireBytes.recordCall(downstream.workloadName(), call.path(), bytes.sent(), bytes.received(), document);
            }
        }
    }

    /**
     * Whether a request may be sent a second time: all but a deposit without an {@code
     * Idempotency-Key}, the one call that changes state (a mint, a validation, a balance, a key set
     * fetch only answer; a deposit with its key is applied at most once, docs/formats/common.md
     * "Idempotent deposits").
     */
    static boolean repeatable(HttpMethod method, String path, Optional<IdempotencyKey> idempotencyKey) {
        return method != HttpMethod.POST || idempotencyKey.isPresent() || !path.endsWith("/deposit");
    }

    /** The connection ended before the first byte of an answer ({@link NoHttpResponseException}). */
    private static boolean closedWithoutAnswer(Throwable e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof NoHttpResponseException) {
                return true;
            }
        }
        return false;
    }

    private <T> T attempt(Call<T> call, long callStart, long forward) {
        return transport.call(client -> withBody(
                        client.method(call.method())
                                .uri(call.path())
                                .headers(h -> {
                                    call.headers().forEach(h::set);
                                    if (forward > 0) {
                                        h.set(Deadline.HEADER, Long.toString(forward));
                                    }
                                    call.idempotencyKey()
                                            .ifPresent(key -> h.set(IdempotencyKey.HEADER, key.headerValue()));
                                })
                                .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON),
                        call.jsonBody())
                .exchange(
                        (request, response) -> {
                            // the downstream's call tree joins this request's Server-Timing
                            ServerTiming.recordDownstream(
                                    downstream.workloadName(),
                                    callStart,
                                    response.getHeaders().get(ServerTiming.HEADER));
                            WireBytes.recordDownstream(
                                    downstream.workloadName(),
                                    response.getHeaders().get(WireBytes.HEADER));
                            HttpStatusCode status = response.getStatusCode();
                            if (status.is2xxSuccessful()) {
                                if (call.noBody()) {
                                    return null;
                                }
                                T body = call.reader().read(response);
                                if (body == null) {
                                    throw new AssertionException(
                                            ErrorCode.UPSTREAM_UNAVAILABLE,
                                            downstream.workloadName() + " answered an empty body");
                                }
                                return body;
                            }
                            throw failure(status, response.getBody());
                        },
                        true));
    }

    private static RestClient.RequestBodySpec withBody(RestClient.RequestBodySpec spec, Object jsonBody) {
        if (jsonBody == null) {
            return spec;
        }
        // an OAuth request (the Txn-Token exchange, RFC 8693) is a form, every other body JSON
        return jsonBody instanceof org.springframework.util.MultiValueMap<?, ?> form
                ? spec.contentType(MediaType.APPLICATION_FORM_URLENCODED).body(form)
                : spec.contentType(MediaType.APPLICATION_JSON).body(jsonBody);
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof java.net.SocketTimeoutException || t instanceof java.io.InterruptedIOException) {
                return true;
            }
        }
        return false;
    }

    private RuntimeException failure(HttpStatusCode status, InputStream body) {
        String code = null;
        String detail = null;
        try {
            byte[] bytes = body.readNBytes(MAX_ERROR_BODY);
            Map<String, Object> problem = JSONObjectUtils.parse(new String(bytes, StandardCharsets.UTF_8));
            if (problem.get("code") instanceof String c) {
                code = c;
            }
            // our problem details never carry document bytes, so the verdict's reason can travel on
            if (problem.get("detail") instanceof String d) {
                detail = d.length() > 300 ? d.substring(0, 300) : d;
            }
        } catch (IOException | ParseException | RuntimeException e) {
            code = null;
        }
        // capacity and time refusals travel up unchanged: the user sees 503 / 504, not 502
        if (status.value() == 503 && RequestRefusedException.OVERLOADED.equals(code)) {
            return RequestRefusedException.overloaded(downstream.workloadName() + " is at capacity");
        }
        if (status.value() == 504 && RequestRefusedException.DEADLINE_EXCEEDED.equals(code)) {
            return RequestRefusedException.deadlineExceeded(downstream.workloadName() + " answered DEADLINE_EXCEEDED"
                    + (detail == null ? "" : " (" + detail + ")"));
        }
        ErrorCode known = known(code);
        if (known == ErrorCode.UPSTREAM_UNAVAILABLE && status.value() == 503) {
            // the downstream could not reach its own peer: unreachable from here too (503, not 502)
            String message = downstream.workloadName() + " answered UPSTREAM_UNAVAILABLE"
                    + (detail == null ? "" : " (" + detail + ")");
            return new AssertionException(known, message, new UnreachableException(message, null));
        }
        if (known != null) {
            return new AssertionException(
                    known,
                    downstream.workloadName() + " answered " + known.name()
                            + (detail == null ? "" : " (" + detail + ")"));
        }
        return new AssertionException(
                ErrorCode.UPSTREAM_UNAVAILABLE, downstream.workloadName() + " answered HTTP " + status.value());
    }

    private static ErrorCode known(String code) {
        if (code == null) {
            return null;
        }
        for (ErrorCode c : ErrorCode.values()) {
            if (c.name().equals(code)) {
                return c;
            }
        }
        return null;
    }

    private static String rootName(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName();
    }

    /** The mode this client is for. */
    public Mode mode() {
        return mode;
    }

    /** The downstream this client calls. */
    public Role downstream() {
        return downstream;
    }

    /** How this client connects. */
    public ConnectionStrategy strategy() {
        return strategy;
    }

    @Override
    public String toString() {
        return "DownstreamClient[" + mode.pathSegment() + " -> " + downstream.workloadName() + ", " + strategy + "]";
    }
}
