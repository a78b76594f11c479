package io.spiffeidt.devstack.workloadapi;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.stub.MetadataUtils;
import io.spiffe.workloadapi.grpc.SpiffeWorkloadAPIGrpc;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A bare gRPC client on a Workload API socket, for what java-spiffe will not do (omit the header). */
final class RawWorkloadApiChannel implements AutoCloseable {

    private static final long DEADLINE_SECONDS = 10;

    private final EventLoopGroup group;
    private final ManagedChannel channel;

    RawWorkloadApiChannel(Path socket) {
        this.group = new EpollEventLoopGroup(1, new DefaultThreadFactory("raw-wlapi-client", true));
        this.channel = NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .eventLoopGroup(group)
                .channelType(EpollDomainSocketChannel.class)
                .usePlaintext()
                .build();
    }

    /** A blocking stub that sends {@code workload.spiffe.io: true} when {@code withHeader}. */
    SpiffeWorkloadAPIGrpc.SpiffeWorkloadAPIBlockingStub blocking(boolean withHeader) {
        SpiffeWorkloadAPIGrpc.SpiffeWorkloadAPIBlockingStub stub =
                SpiffeWorkloadAPIGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
        return withHeader ? stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(header())) : stub;
    }

    /** An async stub with the security header. */
    SpiffeWorkloadAPIGrpc.SpiffeWorkloadAPIStub async() {
        return SpiffeWorkloadAPIGrpc.newStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(header()));
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow();
        channel.awaitTermination(DEADLINE_SECONDS, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    private static Metadata header() {
        Metadata metadata = new Metadata();
        metadata.put(Metadata.Key.of("workload.spiffe.io", Metadata.ASCII_STRING_MARSHALLER), "true");
        return metadata;
    }
}
