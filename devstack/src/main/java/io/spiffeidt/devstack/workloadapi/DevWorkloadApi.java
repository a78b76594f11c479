package io.spiffeidt.devstack.workloadapi;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.ca.DevCa;
import io.spiffeidt.devstack.ca.IssuedSvid;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A development SPIFFE Workload API: one gRPC server per workload, each on its own unix socket
 * {@code <socketDir>/<name>.sock}, serving the five RPCs of the Workload API (FetchX509SVID and
 * FetchX509Bundles streams, FetchJWTSVID, FetchJWTBundles stream, ValidateJWTSVID) from an
 * in-process {@link DevCa}. It stands in for the SPIRE agent: java-spiffe's {@code
 * DefaultX509Source} / {@code DefaultJwtSource} and go-spiffe work against it unchanged.
 *
 * <ul>
 *   <li>Every call must carry the {@code workload.spiffe.io: true} header, or it fails with
 *       {@code INVALID_ARGUMENT}.
 *   <li>The FetchX509SVID stream stays open; {@link #rotate(String)} and the automatic rotation
 *       (at half the SVID TTL, on a daemon thread) push the new SVID on every open stream.
 *   <li>Many clients may share a socket; a client that drops is forgotten without disturbing the
 *       others.
 * </ul>
 *
 * <p>Thread safety: thread-safe.
 */
public final class DevWorkloadApi implements AutoCloseable {

    /** The system property naming the socket directory (see {@link #defaultSocketDir()}). */
    public static final String SOCKET_DIR_PROPERTY = "spiffeidt.devstack.socket-dir";

    /** The workloads of the four-tier system, in call order. */
    public static final List<String> DEFAULT_WORKLOADS = List.of("subject-wl", "asserting-wl", "m-tier", "target-wl");

    private static final System.Logger LOG = System.getLogger(DevWorkloadApi.class.getName());
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");
    /** sun_path holds 108 bytes including the terminating NUL. */
    private static final int MAX_SOCKET_PATH_BYTES = 107;

    private static final long RETRY_AFTER_FAILED_ROTATION_MS = 1000;
    private static final long SHUTDOWN_WAIT_SECONDS = 5;

    private final DevCa ca;
    private final Path socketDir;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ExecutorService executor;
    private final ScheduledExecutorService scheduler;
    private final Map<String, Running> workloads = new LinkedHashMap<>();
    private boolean closed;

    private DevWorkloadApi(DevCa ca, Path socketDir) {
        this.ca = ca;
        this.socketDir = socketDir;
        this.boss = new EpollEventLoopGroup(1, new DefaultThreadFactory("devstack-wlapi-accept", true));
        this.workers = new EpollEventLoopGroup(2, new DefaultThreadFactory("devstack-wlapi-io", true));
        this.executor = Executors.newCachedThreadPool(daemonThreads("devstack-wlapi-call-"));
        this.scheduler = Executors.newSingleThreadScheduledExecutor(daemonThreads("devstack-wlapi-rotation-"));
    }

    /**
     * Starts the Workload API with no socket yet; {@link #addWorkload} opens one per workload.
     * Creates the socket directory if needed.
     *
     * @throws IllegalStateException if the native epoll transport is unavailable (not Linux)
     * @throws UncheckedIOException if the directory cannot be created
     */
    public static DevWorkloadApi start(DevCa ca, Path socketDir) {
        Objects.requireNonNull(ca, "ca");
        Objects.requireNonNull(socketDir, "socketDir");
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException(
                    "the development Workload API needs the native epoll transport (Linux)",
                    Epoll.unavailabilityCause());
        }
        Path dir = socketDir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the socket directory " + dir, e);
        }
        return new DevWorkloadApi(ca, dir);
    }

    /**
     * The socket directory: the system property {@value #SOCKET_DIR_PROPERTY} if set, else {@code
     * spiffeidt-devstack} under the system temporary directory.
     */
    public static Path defaultSocketDir() {
        String configured = System.getProperty(SOCKET_DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "spiffeidt-devstack");
    }

    /**
     * Issues the workload's first SVID and opens its socket {@code <socketDir>/<name>.sock}
     * (replacing a stale socket file left by an earlier run).
     *
     * @param name the workload name: lower-case letters, digits, {@code .}, {@code _}, {@code -}
     * @param id the workload's SPIFFE ID, in the CA's trust domain
     * @return the socket path
     * @throws IllegalArgumentException on a bad name, a name already in use, an ID outside the
     *     trust domain, or a socket path too long for a unix socket
     * @throws IllegalStateException after {@link #close()}
     * @throws UncheckedIOException if the socket cannot be bound
     */
    public synchronized Path addWorkload(String name, SpiffeId id) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        requireOpen();
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid workload name: " + name);
        }
        if (workloads.containsKey(name)) {
            throw new IllegalArgumentException("workload already added: " + name);
        }
        Path socket = socketDir.resolve(name + ".sock");
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH_BYTES) {
            throw new IllegalArgumentException(
                    "socket path longer than " + MAX_SOCKET_PATH_BYTES + " bytes: " + socket);
        }
        WorkloadEndpoint endpoint = new WorkloadEndpoint(name, id, ca);
        Server server;
        try {
            Files.deleteIfExists(socket);
            server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                    .channelType(EpollServerDomainSocketChannel.class)
                    .bossEventLoopGroup(boss)
                    .workerEventLoopGroup(workers)
                    .executor(executor)
                    .addService(ServerInterceptors.intercept(endpoint, new SecurityHeaderCheck()))
                    .build()
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the Workload API socket " + socket, e);
        }
        Running running = new Running(endpoint, server, socket);
        workloads.put(name, running);
        scheduleRotation(running, rotationDelayMillis());
        return socket;
    }

    /**
     * Adds the four {@link #DEFAULT_WORKLOADS} with the IDs {@code spiffe://<trust domain>/<name>}.
     *
     * @return the socket path of each, in call order
     */
    public Map<String, Path> addDefaultWorkloads() {
        Map<String, Path> sockets = new LinkedHashMap<>();
        for (String name : DEFAULT_WORKLOADS) {
            sockets.put(name, addWorkload(name, SpiffeId.parse("spiffe://" + ca.trustDomain() + "/" + name)));
        }
        return sockets;
    }

    /**
     * Issues a new SVID (new key) for the workload now, pushes it on its open FetchX509SVID
     * streams, and restarts its automatic rotation timer.
     *
     * @throws IllegalArgumentException if there is no such workload
     * @throws IllegalStateException after {@link #close()}
     */
    public void rotate(String name) {
        requireOpen();
        Running running = running(name);
        synchronized (running) {
            running.endpoint.rotate();
            scheduleRotation(running, rotationDelayMillis());
        }
    }

    /**
     * The workload's current SVID (the one the last push carried).
     *
     * @throws IllegalArgumentException if there is no such workload
     */
    public IssuedSvid current(String name) {
        return running(name).endpoint.current();
    }

    /**
     * The workload's socket path.
     *
     * @throws IllegalArgumentException if there is no such workload
     */
    public Path socketPath(String name) {
        return running(name).socket;
    }

    /**
     * The workload's endpoint address as {@code SPIFFE_ENDPOINT_SOCKET} takes it: {@code
     * unix:<socket path>}.
     *
     * @throws IllegalArgumentException if there is no such workload
     */
    public String endpointAddress(String name) {
        return "unix:" + socketPath(name);
    }

    /** The names of the workloads added so far, in the order they were added. */
    public synchronized Set<String> workloads() {
        return new LinkedHashSet<>(workloads.keySet());
    }

    /** The CA behind this Workload API. */
    public DevCa ca() {
        return ca;
    }

    /** The directory holding the sockets (absolute). */
    public Path socketDir() {
        return socketDir;
    }

    /** The number of FetchX509SVID streams open on the workload's socket (for tests). */
    int openX509Streams(String name) {
        return running(name).endpoint.openX509Streams();
    }

    /**
     * Stops the rotation timer and every server (open streams end with {@code UNAVAILABLE}),
     * releases the threads and deletes the socket files. Idempotent.
     */
    @Override
    public void close() {
        List<Running> all;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(workloads.values());
        }
        scheduler.shutdownNow();
        for (Running running : all) {
            running.server.shutdownNow();
        }
        boolean interrupted = false;
        for (Running running : all) {
            try {
                running.server.awaitTermination(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        boss.shutdownGracefully(0, SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        workers.shutdownGracefully(0, SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        boss.terminationFuture().awaitUninterruptibly(2 * SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        workers.terminationFuture().awaitUninterruptibly(2 * SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        executor.shutdownNow();
        for (Running running : all) {
            try {
                Files.deleteIfExists(running.socket);
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot delete the socket of " + running.endpoint.name());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "DevWorkloadApi[" + ca.trustDomain() + ", " + socketDir + "]";
    }

    private synchronized Running running(String name) {
        Running running = workloads.get(name);
        if (running == null) {
            throw new IllegalArgumentException("no such workload: " + name);
        }
        return running;
    }

    private synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the development Workload API is closed");
        }
    }

    private long rotationDelayMillis() {
        return Math.max(1, ca.svidTtl().dividedBy(2).toMillis());
    }

    /** Called with the workload's lock held, or before it is published. */
    private void scheduleRotation(Running running, long delayMillis) {
        if (running.nextRotation != null) {
            running.nextRotation.cancel(false);
        }
        try {
            running.nextRotation = scheduler.schedule(() -> rotateOnTimer(running), delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // closed meanwhile: no more rotations
            running.nextRotation = null;
        }
    }

    private void rotateOnTimer(Running running) {
        synchronized (running) {
            try {
                running.endpoint.rotate();
                scheduleRotation(running, rotationDelayMillis());
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "automatic rotation of " + running.endpoint.id() + " failed; retrying",
                        e);
                scheduleRotation(running, RETRY_AFTER_FAILED_ROTATION_MS);
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One workload's endpoint, server and rotation timer. */
    private static final class Running {
        private final WorkloadEndpoint endpoint;
        private final Server server;
        private final Path socket;
        private ScheduledFuture<?> nextRotation;

        Running(WorkloadEndpoint endpoint, Server server, Path socket) {
            this.endpoint = endpoint;
            this.server = server;
            this.socket = socket;
        }
    }
}
