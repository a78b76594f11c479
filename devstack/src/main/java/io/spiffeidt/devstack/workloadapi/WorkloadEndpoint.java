package io.spiffeidt.devstack.workloadapi;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.spiffe.workloadapi.grpc.SpiffeWorkloadAPIGrpc;
import io.spiffe.workloadapi.grpc.Workload;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.devstack.ca.DevCa;
import io.spiffeidt.devstack.ca.IssuedSvid;
import io.spiffeidt.devstack.ca.VerifiedJwtSvid;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Workload API of one workload (one socket): its current X.509-SVID, the open
 * FetchX509SVID streams it pushes rotations to, and the five RPCs.
 *
 * <p>The caller is the workload the socket belongs to: one socket per workload replaces SPIRE's
 * attestation by process selectors.
 *
 * <p>Thread safety: thread-safe. Rotations are serialized; each stream is written under its own
 * lock, and a stream never receives an older SVID after a newer one.
 */
final class WorkloadEndpoint extends SpiffeWorkloadAPIGrpc.SpiffeWorkloadAPIImplBase {

    private final String name;
    private final SpiffeId id;
    private final DevCa ca;
    private final String trustDomainId;
    private final ByteString rootDer;
    private final Workload.X509BundlesResponse x509Bundles;
    private final Workload.JWTBundlesResponse jwtBundles;
    private final Set<X509Stream> x509Streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong generation = new AtomicLong();
    private volatile Published current;

    WorkloadEndpoint(String name, SpiffeId id, DevCa ca) {
        this.name = name;
        this.id = id;
        this.ca = ca;
        this.trustDomainId = "spiffe://" + ca.trustDomain();
        this.rootDer = der(ca.root());
        this.x509Bundles = Workload.X509BundlesResponse.newBuilder()
                .putBundles(trustDomainId, rootDer)
                .build();
        this.jwtBundles = Workload.JWTBundlesResponse.newBuilder()
                .putBundles(trustDomainId, ByteString.copyFrom(ca.jwtBundleJson(), StandardCharsets.UTF_8))
                .build();
        this.current = publish(ca.issue(id));
    }

    String name() {
        return name;
    }

    SpiffeId id() {
        return id;
    }

    IssuedSvid current() {
        return current.svid();
    }

    /** The number of FetchX509SVID streams currently open on this socket. */
    int openX509Streams() {
        return x509Streams.size();
    }

    /** Issues a new SVID (new key) and pushes it on every open FetchX509SVID stream. */
    synchronized IssuedSvid rotate() {
        Published next = publish(ca.issue(id));
        current = next;
        for (X509Stream stream : x509Streams) {
            stream.push(next);
        }
        return next.svid();
    }

    @Override
    public void fetchX509SVID(
            Workload.X509SVIDRequest request, StreamObserver<Workload.X509SVIDResponse> responseObserver) {
        ServerCallStreamObserver<Workload.X509SVIDResponse> call =
                (ServerCallStreamObserver<Workload.X509SVIDResponse>) responseObserver;
        X509Stream stream = new X509Stream(call);
        call.setOnCancelHandler(() -> x509Streams.remove(stream));
        x509Streams.add(stream);
        // Read after registering: either this push or the next rotation's delivers the newest SVID.
        stream.push(current);
    }

    @Override
    public void fetchX509Bundles(
            Workload.X509BundlesRequest request, StreamObserver<Workload.X509BundlesResponse> responseObserver) {
        // The root never changes, so the stream carries one message and stays open, as SPIRE's does.
        ServerCallStreamObserver<Workload.X509BundlesResponse> call =
                (ServerCallStreamObserver<Workload.X509BundlesResponse>) responseObserver;
        call.setOnCancelHandler(() -> {});
        call.onNext(x509Bundles);
    }

    @Override
    public void fetchJWTBundles(
            Workload.JWTBundlesRequest request, StreamObserver<Workload.JWTBundlesResponse> responseObserver) {
        ServerCallStreamObserver<Workload.JWTBundlesResponse> call =
                (ServerCallStreamObserver<Workload.JWTBundlesResponse>) responseObserver;
        call.setOnCancelHandler(() -> {});
        call.onNext(jwtBundles);
    }

    @Override
    public void fetchJWTSVID(
            Workload.JWTSVIDRequest request, StreamObserver<Workload.JWTSVIDResponse> responseObserver) {
        if (request.getAudienceCount() == 0) {
            responseObserver.onError(Status.INVALID_ARGUMENT
                    .withDescription("audience must be specified")
                    .asRuntimeException());
            return;
        }
        if (!request.getSpiffeId().isEmpty()) {
            if (!SpiffeId.isValid(request.getSpiffeId())) {
                responseObserver.onError(Status.INVALID_ARGUMENT
                        .withDescription("requested SPIFFE ID is not valid")
                        .asRuntimeException());
                return;
            }
            if (!SpiffeId.parse(request.getSpiffeId()).equals(id)) {
                responseObserver.onError(Status.PERMISSION_DENIED
                        .withDescription("no identity issued for " + SpiffeId.parse(request.getSpiffeId()))
                        .asRuntimeException());
                return;
            }
        }
        String token;
        try {
            token = ca.signJwtSvid(id, request.getAudienceList(), DevCa.DEFAULT_JWT_SVID_TTL);
        } catch (IllegalArgumentException e) {
            responseObserver.onError(
                    Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        responseObserver.onNext(Workload.JWTSVIDResponse.newBuilder()
                .addSvids(
                        Workload.JWTSVID.newBuilder().setSpiffeId(id.toString()).setSvid(token))
                .build());
        responseObserver.onCompleted();
    }

    @Override
    public void validateJWTSVID(
            Workload.ValidateJWTSVIDRequest request,
            StreamObserver<Workload.ValidateJWTSVIDResponse> responseObserver) {
        if (request.getAudience().isEmpty()) {
            responseObserver.onError(Status.INVALID_ARGUMENT
                    .withDescription("audience must be specified")
                    .asRuntimeException());
            return;
        }
        if (request.getSvid().isEmpty()) {
            responseObserver.onError(Status.INVALID_ARGUMENT
                    .withDescription("svid must be specified")
                    .asRuntimeException());
            return;
        }
        VerifiedJwtSvid verified;
        try {
            verified = ca.validateJwtSvid(request.getSvid(), request.getAudience());
        } catch (AssertionException e) {
            // the message names the code and SPIFFE IDs, never the token
            responseObserver.onError(
                    Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        responseObserver.onNext(Workload.ValidateJWTSVIDResponse.newBuilder()
                .setSpiffeId(verified.id().toString())
                .setClaims(ClaimsStruct.of(verified.claims()))
                .build());
        responseObserver.onCompleted();
    }

    private Published publish(IssuedSvid svid) {
        ByteString chain = ByteString.EMPTY;
        for (X509Certificate cert : svid.chain()) {
            chain = chain.concat(der(cert));
        }
        Workload.X509SVIDResponse response = Workload.X509SVIDResponse.newBuilder()
                .addSvids(Workload.X509SVID
                        .newBuilder()
                        .setSpiffeId(svid.id().toString())
                        .setX509Svid(chain)
                        .setX509SvidKey(ByteString.copyFrom(svid.key().getEncoded()))
                        .setBundle(rootDer))
                .build();
        return new Published(generation.incrementAndGet(), svid, response);
    }

    private static ByteString der(X509Certificate cert) {
        try {
            return ByteString.copyFrom(cert.getEncoded());
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("cannot encode a certificate", e);
        }
    }

    /** One SVID generation and its wire form. */
    private record Published(long generation, IssuedSvid svid, Workload.X509SVIDResponse response) {}

    /** One open FetchX509SVID stream. */
    private final class X509Stream {

        private final ServerCallStreamObserver<Workload.X509SVIDResponse> call;
        private long sent;

        X509Stream(ServerCallStreamObserver<Workload.X509SVIDResponse> call) {
            this.call = call;
        }

        synchronized void push(Published published) {
            if (published.generation() <= sent) {
                return;
            }
            if (call.isCancelled()) {
                x509Streams.remove(this);
                return;
            }
            try {
                call.onNext(published.response());
                sent = published.generation();
            } catch (RuntimeException e) {
                // the client went away between the check and the write: forget the stream
                x509Streams.remove(this);
            }
        }
    }
}
