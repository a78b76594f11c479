package io.spiffeidt.devstack.workloadapi;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Refuses every call without the {@code workload.spiffe.io: true} header, as the SPIFFE Workload
 * API specification requires (it proves the caller meant to talk to a Workload API and is not a
 * browser or proxy replaying a request). The status and message match SPIRE's agent.
 */
final class SecurityHeaderCheck implements ServerInterceptor {

    static final Metadata.Key<String> HEADER = Metadata.Key.of("workload.spiffe.io", Metadata.ASCII_STRING_MARSHALLER);

    static final String MISSING = "security header missing from request";

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (!"true".equals(headers.get(HEADER))) {
            call.close(Status.INVALID_ARGUMENT.withDescription(MISSING), new Metadata());
            return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
    }
}
