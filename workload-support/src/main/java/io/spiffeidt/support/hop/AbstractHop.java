package io.spiffeidt.support.hop;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClient;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import java.util.Objects;

/**
 * The protocol every {@link Hop} shares, written once as template methods (as spring-security's
 * filters and Spring's {@code JdbcTemplate} hold theirs): {@link #verify} times the mode's {@link
 * #check} as {@code validate}, {@link #forward} times and records the mode's {@link #onward} as its
 * {@link Forwarding} says, and the steps of the other tiers ({@link Check}, {@link Production}) time
 * themselves the same way. A mode's hop writes only its steps; it never times anything.
 *
 * <p>Everything a hop uses is given at construction ({@link HopParts}): its mode, this workload's
 * identity (so a role's SPIFFE ID is found one way, {@link #idOf}) and the {@link HopServices} its
 * steps record into and call through.
 *
 * <p>Thread safety: thread safe.
 *
 * @param <D> the mode's verified document
 * @param <A> what another workload answers before the checks run ({@link #consult}: DVID's
 *     validation at the asserting workload); {@link Void} for a mode that checks alone
 */
public abstract class AbstractHop<D, A> implements Hop<D> {

    private final Mode mode;

    /** This workload's identity. */
    protected final WorkloadIdentity identity;

    private final HopServices services;
    private final Forwarding forwarding;
    private final boolean timesChecks;

    /** A hop whose {@link #check} is timed as {@code validate}. */
    protected AbstractHop(Mode mode, HopParts parts, Forwarding forwarding) {
        this(mode, parts, forwarding, true);
    }

    /**
     * @param timesChecks whether {@link #check} is timed as {@code validate}; {@code false} for a mode
     *     whose checks are another component's operation (bearer-forward: {@code oauth_verify})
     */
    protected AbstractHop(Mode mode, HopParts parts, Forwarding forwarding, boolean timesChecks) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.identity = parts.identity();
        this.services = parts.services();
        this.forwarding = Objects.requireNonNull(forwarding, "forwarding");
        this.timesChecks = timesChecks;
    }

    @Override
    public final Mode mode() {
        return mode;
    }

    @Override
    public final SpiffeId self() {
        return identity.self();
    }

    @Override
    public final SpiffeId idOf(Role role) {
        return identity.idOf(role);
    }

    /**
     * {@link #consult} (its calls time themselves), then {@link #check}, timed as {@code validate}: the
     * operation's span carries the document's size and, once verified, its depth (docs/tracing.md).
     */
    @Override
    public final Verified<D> verify(Received received, Caller caller) {
        return checked(received, caller, consult(received, caller));
    }

    /**
     * {@link #check} with {@code answer}, timed as {@link #verify} times it: for a step that asks
     * another workload its own way first (DVID's validation with introspection in one call).
     */
    protected final Verified<D> checked(Received received, Caller caller, A answer) {
        if (!timesChecks) {
            return check(received, caller, answer);
        }
        int bytes = received.characters();
        return metrics().time(mode, Operation.VALIDATE, () -> {
            metrics().describeDocument(0, bytes);
            Verified<D> verified = check(received, caller, answer);
            metrics().describeDocument(verified.depth(), bytes);
            return verified;
        });
    }

    /**
     * What another workload answers about {@code received} before the checks run, for a mode whose
     * documents it validates (DVID: the asserting workload's {@code /dvid/validate}); {@code null} for a
     * mode that checks alone.
     */
    protected A consult(Received received, Caller caller) {
        return null;
    }

    /**
     * Every check this mode makes of {@code received}, which {@code caller} sent: the step {@link
     * #verify} times.
     *
     * @param answer what {@link #consult} answered ({@code null} for a mode that checks alone)
     */
    protected abstract Verified<D> check(Received received, Caller caller, A answer);

    /** {@link #onward}, timed and recorded as this hop's {@link Forwarding} says. */
    @Override
    public final Outgoing forward(Verified<D> verified, Role next) {
        return switch (forwarding) {
            case EXTENDS -> metrics().time(mode, Operation.EXTEND, () -> recorded(onward(verified, next)));
            case REWRITES -> recorded(onward(verified, next));
            case RELAYS -> onward(verified, next);
        };
    }

    /** What goes to {@code next} for {@code verified}: the step {@link #forward} times. */
    protected abstract Outgoing onward(Verified<D> verified, Role next);

    /** Records the size of {@code outgoing}, which this hop wrote, and returns it. */
    protected final Outgoing recorded(Outgoing outgoing) {
        metrics().recordDocumentSize(mode, outgoing.depth(), outgoing.characters());
        return outgoing;
    }

    /** The services this hop uses. */
    protected final HopServices services() {
        return services;
    }

    private OperationMetrics metrics() {
        return services.metrics();
    }

    /** The client of this mode's calls to {@code downstream}. */
    protected final DownstreamClient client(Role downstream) {
        return services.requireClients().client(mode, downstream);
    }

    /**
     * A check of a document another workload sent or answered, outside {@link #verify} (the subject
     * workload's check of the asserting workload's answer, the asserting workload's check of what it is
     * asked to validate, extend or replace), timed as {@code validate} like {@link #verify}.
     *
     * @param <O> what the check establishes
     */
    protected abstract class Check<O> {

        /** Runs {@link #apply}, timed as {@code validate}. */
        public final O run(Received received, Caller caller) {
            int bytes = received.characters();
            return metrics().time(mode, Operation.VALIDATE, () -> {
                metrics().describeDocument(0, bytes);
                O checked = apply(received, caller);
                metrics().describeDocument(depthOf(checked), bytes);
                return checked;
            });
        }

        /**
         * The checks.
         *
         * @param caller the peer that sent {@code received}, or {@code null} for an answer to this
         *     workload's own call
         */
        protected abstract O apply(Received received, Caller caller);

        /** The number of layers of what was checked. */
        protected int depthOf(O checked) {
            return 1;
        }
    }

    /**
     * A step that produces a document outside {@link #forward} (a mint, the subject workload's first
     * extension or that of a kept document), timed as its operation, its size recorded inside it.
     *
     * @param <I> what it is made from
     * @param <P> what it makes
     */
    protected abstract class Production<I, P> {

        private final Operation operation;

        /** A step timed as {@code operation}. */
        protected Production(Operation operation) {
            this.operation = Objects.requireNonNull(operation, "operation");
        }

        /** Runs {@link #make}, timed, and records the size of what it made. */
        public final P run(I input) {
            return metrics().time(mode, operation, () -> {
                P made = make(input);
                metrics().recordDocumentSize(mode, depthOf(made), charactersOf(made));
                return made;
            });
        }

        /** Makes the document. */
        protected abstract P make(I input);

        /** Its number of layers. */
        protected abstract int depthOf(P made);

        /** Its encoded size (token and artifacts). */
        protected abstract int charactersOf(P made);
    }

    /**
     * A {@link Production} of a {@link Minted} document, timed as {@code mint}.
     *
     * @param <I> what it is made from
     * @param <M> the mode's minted document
     */
    protected abstract class MintedProduction<I, M> extends Production<I, Minted<M>> {

        protected MintedProduction() {
            super(Operation.MINT);
        }

        @Override
        protected final int depthOf(Minted<M> made) {
            return made.depth();
        }

        @Override
        protected final int charactersOf(Minted<M> made) {
            return made.characters();
        }
    }

    /**
     * The {@link Minting} of a mode: {@link #make} mints the mode's document for a grant, timed as
     * {@code mint}, the size of what it made recorded.
     *
     * @param <M> the mode's minted document
     */
    protected abstract class MintingStep<M> extends MintedProduction<Grant, M> implements Minting<M> {

        @Override
        public final Minted<M> mint(Grant grant) {
            return run(grant);
        }
    }

    /** A {@link Production} of what goes on the wire. */
    protected abstract class OutgoingProduction<I> extends Production<I, Outgoing> {

        protected OutgoingProduction(Operation operation) {
            super(operation);
        }

        @Override
        protected final int depthOf(Outgoing made) {
            return made.depth();
        }

        @Override
        protected final int charactersOf(Outgoing made) {
            return made.characters();
        }
    }
}
