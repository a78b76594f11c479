package io.spiffeidt.support.testing;

import com.google.protobuf.ByteString;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.spiffe.svid.x509svid.X509Svid;
import io.spiffe.workloadapi.grpc.SpiffeWorkloadAPIGrpc;
import io.spiffe.workloadapi.grpc.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal SPIFFE Workload API (FetchX509SVID only) on a unix socket, for tests of the real
 * java-spiffe client path (gRPC over epoll). Every stream gets the current SVID; {@link #rotate}
 * pushes a new one to open streams.
 */
public final class TestWorkloadApi implements AutoCloseable {

    private final Path socket;
    private final TestPki pki;
    private final EventLoopGroup group = new EpollEventLoopGroup(1);
    private final Server server;
    private final List<StreamObserver<Workload.X509SVIDResponse>> streams = new CopyOnWriteArrayList<>();
    private final AtomicInteger fetches = new AtomicInteger();
    private final boolean rsa;
    private volatile X509Svid svid;

    /** Serves SVIDs (EC P-256 keys) for {@code spiffeId} from {@code pki} on a new socket in {@code dir}. */
    public TestWorkloadApi(Path dir, TestPki pki, String spiffeId) throws IOException {
        this(dir, pki, spiffeId, false);
    }

    /**
     * Serves SVIDs for {@code spiffeId} from {@code pki} on a new socket in {@code dir}, with RSA
     * 2048-bit keys when {@code rsa} ({@link TestPki#issueRsa}).
     */
    public TestWorkloadApi(Path dir, TestPki pki, String spiffeId, boolean rsa) throws IOException {
        this.socket = dir.resolve("agent.sock");
        Files.deleteIfExists(socket);
        this.pki = pki;
        this.rsa = rsa;
        this.svid = issue(spiffeId);
        this.server = NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollServerDomainSocketChannel.class)
                .bossEventLoopGroup(group)
                .workerEventLoopGroup(group)
                .addService(new SpiffeWorkloadAPIGrpc.SpiffeWorkloadAPIImplBase() {
                    @Override
                    public void fetchX509SVID(
                            Workload.X509SVIDRequest request, StreamObserver<Workload.X509SVIDResponse> observer) {
                        fetches.incrementAndGet();
                        streams.add(observer);
                        if (observer instanceof ServerCallStreamObserver<Workload.X509SVIDResponse> call) {
                            call.setOnCancelHandler(() -> streams.remove(observer));
                        }
                        observer.onNext(response());
                    }
                })
                .build()
                .start();
    }

    /** The socket address for clients ({@code unix:/...}). */
    public String address() {
        return "unix:" + socket;
    }

    /** How many FetchX509SVID streams were opened. */
    public int fetches() {
        return fetches.get();
    }

    /** How many streams are open now. */
    public int openStreams() {
        return streams.size();
    }

    /** Issues a new SVID for the same ID and pushes it to every open stream. */
    public X509Svid rotate() {
        this.svid = issue(svid.getSpiffeId().toString());
        Workload.X509SVIDResponse response = response();
        for (StreamObserver<Workload.X509SVIDResponse> stream : streams) {
            stream.onNext(response);
        }
        return svid;
    }

    private X509Svid issue(String spiffeId) {
        return rsa ? pki.issueRsa(spiffeId) : pki.issue(spiffeId);
    }

    private Workload.X509SVIDResponse response() {
        X509Svid current = svid;
        try {
            ByteString chain = ByteString.EMPTY;
            for (X509Certificate cert : current.getChain()) {
                chain = chain.concat(ByteString.copyFrom(cert.getEncoded()));
            }
            return Workload.X509SVIDResponse.newBuilder()
                    .addSvids(Workload.X509SVID
                            .newBuilder()
                            .setSpiffeId(current.getSpiffeId().toString())
                            .setX509Svid(chain)
                            .setX509SvidKey(
                                    ByteString.copyFrom(current.getPrivateKey().getEncoded()))
                            .setBundle(ByteString.copyFrom(pki.caCertificate().getEncoded())))
                    .build();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (StreamObserver<Workload.X509SVIDResponse> stream : streams) {
            stream.onCompleted();
        }
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
}
