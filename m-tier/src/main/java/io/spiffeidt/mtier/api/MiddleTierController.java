package io.spiffeidt.mtier.api;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Hop;
import io.spiffeidt.support.hop.Introspection;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.RequestHeaders;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.IdempotencyKey;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;

/**
 * The middle tier's protocol, the same in every mode (docs/design.md "The hop contract"): receive
 * what the subject workload sent (the body's document, or a baseline's header: {@link Hop#receive}),
 * verify it ({@link Hop#verify}, or with the hop's {@link Hop#introspection()} where the mode's
 * controller asks for it), extend it for the target ({@link #toTarget}), call the target, answer its
 * answer. Each mode's controller ({@code @RequestMapping("/<mode>")}) extends this class with its hop,
 * and overrides {@link #toTarget} where the mode's step differs.
 *
 * @param <D> the mode's verified document
 */
public abstract class MiddleTierController<D> {

    private final DownstreamClients clients;

    /** The mode's hop. */
    protected final Hop<D> hop;

    private final Optional<Introspection<D>> introspection;

    /** A tier that verifies with {@link Hop#verify} alone. */
    protected MiddleTierController(DownstreamClients clients, Hop<D> hop) {
        this(clients, hop, false);
    }

    /**
     * @param introspects whether this tier binds the root to the asserting workload too ({@link
     *     Hop#introspection()}, which the mode must have)
     */
    protected MiddleTierController(DownstreamClients clients, Hop<D> hop, boolean introspects) {
        this.clients = clients;
        this.hop = hop;
        this.introspection = introspects ? Optional.of(introspectionOf(hop)) : Optional.empty();
    }

    private static <D> Introspection<D> introspectionOf(Hop<D> hop) {
        return hop.introspection()
                .orElseThrow(() -> new IllegalStateException(hop.mode().pathSegment() + " has no introspection"));
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(
            @Valid @RequestBody DocumentRequest request, HttpServletRequest servletRequest, Caller caller) {
        return forward("balance", request, RequestHeaders.of(servletRequest), Optional.empty(), caller);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(
            @Valid @RequestBody DocumentRequest request,
            @RequestHeader(value = IdempotencyKey.HEADER, required = false) String idempotencyKey,
            HttpServletRequest servletRequest,
            Caller caller) {
        return forward(
                "deposit", request, RequestHeaders.of(servletRequest), IdempotencyKey.parse(idempotencyKey), caller);
    }

    /** Verify, then what goes to the target: by default the document extended for it. */
    protected Outgoing toTarget(Received received, Caller caller) {
        return hop.forward(verify(received, caller), Role.TARGET_WL);
    }

    /** Every check of this tier: the hop's verification, with its introspection where asked for. */
    protected final Verified<D> verify(Received received, Caller caller) {
        return introspection.isPresent() ? introspection.get().verify(received, caller) : hop.verify(received, caller);
    }

    private AccountResponse forward(
            String operation,
            DocumentRequest request,
            HttpHeaders headers,
            Optional<IdempotencyKey> idempotencyKey,
            Caller caller) {
        Outgoing outgoing = toTarget(hop.receive(request, headers), caller);
        Mode mode = hop.mode();
        return clients.client(mode, Role.TARGET_WL)
                .post(
                        Operation.TARGET_CALL,
                        "/" + mode.pathSegment() + "/" + operation,
                        outgoing.request(request.amount()),
                        AccountResponse.class,
                        idempotencyKey,
                        outgoing.headers(),
                        outgoing.headerDocumentCharacters());
    }
}
