package io.spiffeidt.support.client;

import io.micrometer.common.KeyValues;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.SpiffeTls;
import io.spiffeidt.support.identity.SvidPin;
import io.spiffeidt.support.identity.X509SourceFactory;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.server.AdmissionProperties;
import io.spiffeidt.support.server.Deadline;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ssl.TLS;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.observation.ClientRequestObservationContext;
import org.springframework.http.client.observation.DefaultClientRequestObservationConvention;
import org.springframework.web.client.RestClient;

/**
 * Builds the outbound mTLS clients of this workload, one per (mode, downstream), each with the
 * {@link ConnectionStrategy} of the pooling profile and overrides (docs/design.md "Connections", {@link
 * PoolingTable}). Every SSL context authorizes exactly the configured SPIFFE ID of its downstream.
 *
 * <ul>
 *   <li>{@link ConnectionStrategy#POOLED}: one Apache HttpClient 5 pooling connection manager per
 *       downstream, keep-alive, shared by the modes.
 *   <li>{@link ConnectionStrategy#NON_POOLED}: a new TCP connection and a fresh SSL context (so no
 *       session resumption) per request; connections are never reused.
 *   <li>{@link ConnectionStrategy#NON_POOLED_FRESH_SOURCE}: as NON_POOLED, plus a fresh X.509 source
 *       from the {@link X509SourceFactory} per request, closed afterwards; the setup is timed as
 *       {@code mtls_client_setup}.
 * </ul>
 *
 * HTTP client metrics: Spring's {@code http.client.requests} with the extra tag {@code pooling}, and
 * the counter {@code spiffeidt.client.handshakes} of completed TLS handshakes per downstream and
 * strategy; every exchange's bytes are counted on its connection ({@link ExchangeBytes}).
 *
 * <p>Thread safety: thread safe; clients are created lazily and cached.
 */
public class DownstreamClients implements Closeable {

    /** The longest a pooled connection is used; then a new one (and a new handshake) is made. */
    static final TimeValue CONNECTION_TIME_TO_LIVE = TimeValue.ofMinutes(1);

    private static final Logger log = LoggerFactory.getLogger(DownstreamClients.class);

    private final IdentityProperties identity;
    private final PoolingProperties pooling;
    private final AdmissionProperties admission;
    private final X509Source source;
    private final X509SourceFactory freshSources;
    private final RestClient.Builder restClientBuilder;
    private final OperationMetrics metrics;
    private final Map<String, DownstreamClient> clients = new ConcurrentHashMap<>();
    private final Map<String, RestClient> sharedTransports = new ConcurrentHashMap<>();
    private final Map<String, RotatingPool> pools = new ConcurrentHashMap<>();
    /** Passes a request on unchanged; its presence makes RestClient buffer the body (see restClient). */
    private static final ClientHttpRequestInterceptor WHOLE_BODY =
            (request, body, execution) -> execution.execute(request, body);

    private final List<CloseableHttpClient> toClose = new CopyOnWriteArrayList<>();

    /**
     * @param identity IDs and endpoints; {@code workload} is the caller
     * @param pooling connection strategies and HTTP client limits
     * @param source the long-lived X.509 source (POOLED and NON_POOLED)
     * @param freshSources opens a source per request for NON_POOLED_FRESH_SOURCE
     * @param restClientBuilder template builder (Jackson converters, observation registry); cloned
     * @param metrics where {@code mtls_client_setup} goes
     */
    public DownstreamClients(
            IdentityProperties identity,
            PoolingProperties pooling,
            X509Source source,
            X509SourceFactory freshSources,
            RestClient.Builder restClientBuilder,
            OperationMetrics metrics) {
        this(identity, pooling, source, freshSources, restClientBuilder, metrics, AdmissionProperties.defaults());
    }

    /**
     * As above, with the admission settings whose {@code hop-margin} shortens the deadline passed
     * downstream ({@link Deadline}).
     */
    public DownstreamClients(
            IdentityProperties identity,
            PoolingProperties pooling,
            X509Source source,
            X509SourceFactory freshSources,
            RestClient.Builder restClientBuilder,
            OperationMetrics metrics,
            AdmissionProperties admission) {
        this.admission = Objects.requireNonNull(admission, "admission");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.pooling = Objects.requireNonNull(pooling, "pooling");
        this.source = Objects.requireNonNull(source, "source");
        this.freshSources = Objects.requireNonNull(freshSources, "freshSources");
        this.restClientBuilder = Objects.requireNonNull(restClientBuilder, "restClientBuilder");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /**
     * The strategy of the (mode, downstream) cell for this workload.
     *
     * @see PoolingTable#strategy
     */
    public ConnectionStrategy strategy(Mode mode, Role downstream) {
        return PoolingTable.strategy(pooling.profile(), pooling.overrides(), identity.workload(), mode, downstream);
    }

    /**
     * The client for calls in {@code mode} to {@code downstream}.
     *
     * @throws IllegalStateException when the downstream has no {@code https} endpoint configured
     */
    public DownstreamClient client(Mode mode, Role downstream) {
        String key = mode.pathSegment() + "->" + downstream.workloadName();
        DownstreamClient existing = clients.get(key);
        if (existing != null) {
            return existing;
        }
        return clients.computeIfAbsent(key, k -> create(mode, downstream));
    }

    /**
     * A pooled client to this workload's own server at {@code base}, for the start-up warm-up: the same
     * HTTP client, TLS and RestClient set-up as the calls downstream. Over {@code https} it presents the
     * workload's SVID and accepts only the workload's own SPIFFE ID. Closed with the others.
     */
    public RestClient selfClient(URI base) {
        Role self = identity.workload();
        TlsSocketStrategy tls =
                tlsStrategy(SpiffeTls.clientContext(source, identity.idOf(self)), self, ConnectionStrategy.POOLED);
        CloseableHttpClient http = httpClient(tls, true);
        toClose.add(http);
        return restClient(http, base, ConnectionStrategy.POOLED);
    }

    private DownstreamClient create(Mode mode, Role downstream) {
        URI base = identity.endpointOf(downstream);
        if (!"https".equalsIgnoreCase(base.getScheme())) {
            throw new IllegalStateException(
                    "spiffeidt.endpoints." + downstream.workloadName() + " must be an https URL (SPIFFE mTLS)");
        }
        SpiffeId expected = identity.idOf(downstream);
        ConnectionStrategy strategy = strategy(mode, downstream);
        log.info("client {} -> {} ({}) uses {}", mode.pathSegment(), downstream.workloadName(), expected, strategy);
        DownstreamClient.Transport transport =
                switch (strategy) {
                    case POOLED -> shared(strategy, downstream, base, expected);
                    case NON_POOLED -> shared(strategy, downstream, base, expected);
                    case NON_POOLED_FRESH_SOURCE -> freshSource(mode, downstream, base, expected);
                };
        return new DownstreamClient(mode, downstream, strategy, transport, admission.hopMargin(), metrics);
    }

    private DownstreamClient.Transport shared(
            ConnectionStrategy strategy, Role downstream, URI base, SpiffeId expected) {
        String key = strategy + "->" + downstream.workloadName();
        if (strategy == ConnectionStrategy.POOLED) {
            return pools.computeIfAbsent(key, k -> new RotatingPool(downstream, base, expected));
        }
        RestClient rest = sharedTransports.computeIfAbsent(key, k -> {
            // a fresh SSL context per connection: no TLS session to resume
            // the connection is made on the request's thread: it presents the SVID the request pinned
            TlsSocketStrategy tls = (socket, target, port, attachment, context) -> tlsStrategy(
                            SpiffeTls.clientContext(SvidPin.svid(source), source, expected), downstream, strategy)
                    .upgrade(socket, target, port, attachment, context);
            CloseableHttpClient http = httpClient(tls, false);
            toClose.add(http);
            return restClient(http, base, strategy);
        });
        return new DownstreamClient.Transport() {
            @Override
            public <T> T call(DownstreamClient.RestCall<T> call) {
                return call.on(rest);
            }
        };
    }

    private DownstreamClient.Transport freshSource(Mode mode, Role downstream, URI base, SpiffeId expected) {
        return new DownstreamClient.Transport() {
            @Override
            public <T> T call(DownstreamClient.RestCall<T> call) {
                FreshSetup setup = metrics.time(mode, Operation.MTLS_CLIENT_SETUP, () -> {
                    // the Workload API gets what is left of the request's time, not the start-up's wait
                    X509Source fresh = Deadline.current()
                            .map(d -> freshSources.open(Duration.ofMillis(Math.max(1, d.remainingMillis()))))
                            .orElseGet(freshSources::open);
                    try {
                        // within a request the SVID it signed with; the fresh source's bundles
                        X509Svid presented = SvidPin.pinned(source).orElseGet(fresh::getX509Svid);
                        CloseableHttpClient http = httpClient(
                                tlsStrategy(
                                        SpiffeTls.clientContext(presented, fresh, expected),
                                        downstream,
                                        ConnectionStrategy.NON_POOLED_FRESH_SOURCE),
                                false);
                        return new FreshSetup(
                                fresh, http, restClient(http, base, ConnectionStrategy.NON_POOLED_FRESH_SOURCE));
                    } catch (RuntimeException e) {
                        closeQuietly(fresh);
                        throw e;
                    }
                });
                try {
                    return call.on(setup.rest());
                } finally {
                    closeQuietly(setup.http());
                    closeQuietly(setup.source());
                }
            }
        };
    }

    private record FreshSetup(X509Source source, CloseableHttpClient http, RestClient rest) {}

    /**
     * The POOLED transport to one downstream (docs/design.md "One SVID per request"): one pool per
     * SVID of this workload, whose connections all present that SVID. A call takes the pool of the SVID its request pinned ({@link SvidPin}),
     * so a downstream that binds a document to its mTLS presenter by key (ID-Mode, LSVID) sees the
     * key the document was signed with, even when the SVID rotated in between. When the source's SVID
     * changes, its pool becomes the current one and the previous one is kept for the requests still
     * pinned to it; the pool before that takes no more calls and is closed when its last call in
     * flight has ended, the rest at shutdown. A request pinned to an SVID that is neither (two rotations
     * during one request) gets a connection of its own, closed after the call.
     */
    private final class RotatingPool implements DownstreamClient.Transport {

        /** One pool, presenting one SVID; closed once it is dropped and its last call has ended. */
        private final class Generation {
            final X509Svid svid;
            final X509Certificate leaf;
            final CloseableHttpClient http;
            final RestClient rest;
            private final AtomicInteger calls = new AtomicInteger();
            private volatile boolean dropped;
            private final AtomicBoolean closed = new AtomicBoolean();

            Generation(X509Svid svid) {
                this.svid = svid;
                this.leaf = svid.getLeaf();
                this.http = httpClient(tls(svid), true);
                this.rest = restClient(http, base, ConnectionStrategy.POOLED);
                toClose.add(http);
            }

            boolean presents(X509Svid other) {
                return svid == other || leaf.equals(other.getLeaf());
            }

            /** Counts a call in; false when the pool was dropped (the caller looks again). */
            boolean enter() {
                calls.incrementAndGet();
                if (dropped) {
                    exit();
                    return false;
                }
                return true;
            }

            void exit() {
                if (calls.decrementAndGet() == 0 && dropped) {
                    close();
                }
            }

            /** No new calls; closed now, or when the last call in flight ends. */
            void drop() {
                dropped = true;
                if (calls.get() == 0) {
                    close();
                }
            }

            private void close() {
                if (closed.compareAndSet(false, true)) {
                    closeQuietly(http);
                    toClose.remove(http);
                }
            }
        }

        private final Role downstream;
        private final URI base;
        private final SpiffeId expected;
        private volatile Generation current;
        private Generation retired; // guarded by this

        RotatingPool(Role downstream, URI base, SpiffeId expected) {
            this.downstream = downstream;
            this.base = base;
            this.expected = expected;
        }

        @Override
        public <T> T call(DownstreamClient.RestCall<T> call) {
            X509Svid svid = SvidPin.svid(source);
            Generation g = current;
            if (g == null || !g.presents(svid) || !g.enter()) {
                g = enter(svid);
            }
            if (g != null) {
                try {
                    return call.on(g.rest);
                } finally {
                    g.exit();
                }
            }
            CloseableHttpClient once = httpClient(tls(svid), false);
            try {
                return call.on(restClient(once, base, ConnectionStrategy.POOLED));
            } finally {
                closeQuietly(once);
            }
        }

        /**
         * Counts a call into the pool presenting {@code svid}: a new current one when {@code svid} is
         * the source's SVID now; null when it is neither the source's nor one of the two pools'.
         */
        private synchronized Generation enter(X509Svid svid) {
            Generation g = current;
            Generation found = null;
            if (g != null && g.presents(svid)) {
                found = g;
            } else if (retired != null && retired.presents(svid)) {
                found = retired;
            } else if (g != null && !svid.getLeaf().equals(source.getX509Svid().getLeaf())) {
                return null; // not the source's SVID any more: a request pinned to an older one
            } else {
                if (retired != null) {
                    retired.drop();
                }
                retired = g;
                found = new Generation(svid);
                current = found;
                if (g != null) {
                    log.info("SVID rotated: new connection pool to {}", expected);
                }
            }
            // under this lock no pool in current or retired is dropped
            found.enter();
            return found;
        }

        private TlsSocketStrategy tls(X509Svid svid) {
            return tlsStrategy(SpiffeTls.clientContext(svid, source, expected), downstream, ConnectionStrategy.POOLED);
        }
    }

    /**
     * TLS 1.3 with the SPIFFE trust manager of {@code context}; every completed handshake is counted
     * ({@link OperationMetrics#countClientHandshake}), which is how a pooled run is told from a
     * non-pooled one.
     */
    private TlsSocketStrategy tlsStrategy(SSLContext context, Role downstream, ConnectionStrategy strategy) {
        TlsSocketStrategy tls = ClientTlsStrategyBuilder.create()
                .setSslContext(context)
                .setTlsVersions(TLS.V_1_3)
                // authorization is the SPIFFE ID check of the trust manager; SVIDs carry no DNS names
                .setHostVerificationPolicy(HostnameVerificationPolicy.CLIENT)
                .setHostnameVerifier(NoopHostnameVerifier.INSTANCE)
                .buildClassic();
        return (socket, target, port, attachment, httpContext) -> {
            SSLSocket upgraded = tls.upgrade(socket, target, port, attachment, httpContext);
            metrics.countClientHandshake(downstream.workloadName(), strategy.tagValue());
            return upgraded;
        };
    }

    private CloseableHttpClient httpClient(TlsSocketStrategy tls, boolean reuse) {
        Timeout connect = Timeout.of(pooling.connectTimeout());
        Timeout response = Timeout.of(pooling.responseTimeout());
        PoolingHttpClientConnectionManager manager = PoolingHttpClientConnectionManagerBuilder.create()
                .setTlsSocketStrategy(tls)
                .setMaxConnTotal(pooling.maxConnections())
                .setMaxConnPerRoute(pooling.maxConnections())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(connect)
                        .setSocketTimeout(response)
                        // a downstream that restarted closed its end: check a connection idle this long
                        // before reuse (a read that waits 1 ms on a live one), rather than fail the next
                        // request on it; not much shorter, or every call at a few requests a second pays it
                        .setValidateAfterInactivity(TimeValue.ofMilliseconds(
                                pooling.validateAfterInactivity().toMillis()))
                        // no connection outlives this: the peer's certificate was checked at the handshake,
                        // and the servers no longer close a connection after a number of requests
                        .setTimeToLive(CONNECTION_TIME_TO_LIVE)
                        .build())
                .build();
        HttpClientBuilder builder = HttpClients.custom()
                .setConnectionManager(manager)
                // a client-authenticated TLS connection would otherwise carry a user token and never be reused
                .disableConnectionState()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableAutomaticRetries()
                .disableRedirectHandling()
                // counts each exchange's bytes on the connection (spiffeidt.http.client.bytes)
                .setRequestExecutor(ExchangeBytes.executor())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(response)
                        .setResponseTimeout(response)
                        .build());
        if (!reuse) {
            builder.setConnectionReuseStrategy((request, resp, context) -> false);
        }
        return builder.build();
    }

    private RestClient restClient(CloseableHttpClient http, URI base, ConnectionStrategy strategy) {
        return restClientBuilder
                .clone()
                .baseUrl(base)
                .requestFactory(requestFactory(http))
                // with an interceptor the body is serialised first and sent with its Content-Length in
                // one go; streamed, it went chunked, and the closing chunk came in a later TLS record the
                // downstream's worker had to wait for (one more poller wake-up per hop)
                .requestInterceptor(WHOLE_BODY)
                .observationConvention(new PoolingObservationConvention(strategy))
                .build();
    }

    /**
     * The request factory of {@code http}: a call made while a request's {@link Deadline} is bound
     * waits for its connection and answer no longer than the deadline leaves (and never longer than
     * the configured response timeout).
     */
    private HttpComponentsClientHttpRequestFactory requestFactory(CloseableHttpClient http) {
        HttpComponentsClientHttpRequestFactory factory = new HttpComponentsClientHttpRequestFactory(http);
        long configured = pooling.responseTimeout().toMillis();
        factory.setHttpContextFactory((method, uri) -> {
            HttpClientContext context = HttpClientContext.create();
            Deadline.current().ifPresent(d -> {
                Timeout left = Timeout.ofMilliseconds(Math.max(1, Math.min(configured, d.remainingMillis())));
                context.setRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(left)
                        .setResponseTimeout(left)
                        .build());
            });
            return context;
        });
        return factory;
    }

    private static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException | RuntimeException e) {
            log.debug("close failed: {}", e.getClass().getSimpleName());
        }
    }

    /** Closes every pooled and non-pooled HTTP client. */
    @Override
    public void close() {
        for (CloseableHttpClient http : toClose) {
            closeQuietly(http);
        }
        toClose.clear();
        sharedTransports.clear();
        pools.clear();
        clients.clear();
    }

    /** Adds the {@code pooling} tag to Spring's {@code http.client.requests}. */
    static final class PoolingObservationConvention extends DefaultClientRequestObservationConvention {
        private final String pooling;

        PoolingObservationConvention(ConnectionStrategy strategy) {
            this.pooling = strategy.tagValue();
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(ClientRequestObservationContext context) {
            return super.getLowCardinalityKeyValues(context).and("pooling", pooling);
        }
    }
}
