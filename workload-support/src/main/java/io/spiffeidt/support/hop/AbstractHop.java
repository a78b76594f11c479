package io.spiffeidt.support.hop;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.client.DownstreamClient;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The part every {@link Hop} shares: its mode, this workload's identity (so a role's SPIFFE ID is
 * found one way, {@link #idOf}), and the {@link HopServices} its verbs time into and call through,
 * connected by the mode's auto-configuration after construction ({@link HopServices#standalone()}
 * until then).
 *
 * <p>Thread safety: thread safe.
 *
 * @param <D> the mode's verified document
 */
public abstract class AbstractHop<D> implements Hop<D> {

    private final Mode mode;

    /** This workload's identity. */
    protected final WorkloadIdentity identity;

    private volatile HopServices services = HopServices.standalone();

    protected AbstractHop(Mode mode, WorkloadIdentity identity) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    /** Uses {@code services} for the metrics, downstream calls and IdP keys of every later verb. */
    public void connect(HopServices services) {
        this.services = Objects.requireNonNull(services, "services");
    }

    /** The services this hop uses. */
    protected HopServices services() {
        return services;
    }

    /** The metrics this hop records into. */
    protected OperationMetrics metrics() {
        return services.metrics();
    }

    @Override
    public final Mode mode() {
        return mode;
    }

    @Override
    public SpiffeId self() {
        return identity.self();
    }

    @Override
    public SpiffeId idOf(Role role) {
        return identity.idOf(role);
    }

    /** Times {@code work} as {@code operation} of this mode. */
    protected <T> T time(Operation operation, Supplier<T> work) {
        return services.metrics().time(mode, operation, work);
    }

    /**
     * Times the verification of {@code received} as {@code validate}; the operation's span carries the
     * document's size and, once verified, its depth (docs/tracing.md).
     */
    protected <T> T timeValidate(Received received, Supplier<T> work, ToIntFunction<T> depth) {
        int bytes = received.token().length()
                + (received.artifacts() == null ? 0 : received.artifacts().length());
        return time(Operation.VALIDATE, () -> {
            metrics().describeDocument(0, bytes);
            T verified = work.get();
            metrics().describeDocument(depth.applyAsInt(verified), bytes);
            return verified;
        });
    }

    /**
     * Times {@code work}, which produces a document, as {@code operation}, and records the document's
     * size inside it, so that the operation's span carries its depth and size too.
     */
    protected <T> T timeProduced(
            Operation operation, Supplier<T> work, ToIntFunction<T> depth, ToIntFunction<T> bytes) {
        return time(operation, () -> {
            T produced = work.get();
            recordSize(depth.applyAsInt(produced), bytes.applyAsInt(produced));
            return produced;
        });
    }

    /** Records the encoded size of a document of {@code depth} layers this hop produced. */
    protected void recordSize(int depth, int bytes) {
        services.metrics().recordDocumentSize(mode, depth, bytes);
    }

    /** The client of this mode's calls to {@code downstream}. */
    protected DownstreamClient client(Role downstream) {
        return services.requireClients().client(mode, downstream);
    }
}
