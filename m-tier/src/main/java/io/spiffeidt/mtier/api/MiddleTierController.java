package io.spiffeidt.mtier.api;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Hop;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.IdempotencyKey;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;

/**
 * The middle tier's protocol, the same in every mode (docs/design.md "The hop contract"): receive
 * what the subject workload sent (the body's document, or a baseline's header: {@link Hop#receive}),
 * verify it, extend it for the target ({@link #toTarget}), call the target,
 * answer its answer. Each mode's controller ({@code @RequestMapping("/<mode>")}) extends this class
 * with its hop, and overrides {@link #toTarget} where the mode's step differs.
 *
 * @param <D> the mode's verified document
 */
public abstract class MiddleTierController<D> {

    private final DownstreamClients clients;

    /** The mode's hop. */
    protected final Hop<D> hop;

    protected MiddleTierController(DownstreamClients clients, Hop<D> hop) {
        this.clients = clients;
        this.hop = hop;
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(
            @Valid @RequestBody DocumentRequest request, HttpServletRequest servletRequest, Caller caller) {
        return forward("balance", request, headers(servletRequest), Optional.empty(), caller);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(
            @Valid @RequestBody DocumentRequest request,
            @RequestHeader(value = IdempotencyKey.HEADER, required = false) String idempotencyKey,
            HttpServletRequest servletRequest,
            Caller caller) {
        return forward("deposit", request, headers(servletRequest), IdempotencyKey.parse(idempotencyKey), caller);
    }

    /** Verify, then what goes to the target: by default the document extended for it. */
    protected Outgoing toTarget(Received received, Caller caller) {
        return hop.forward(hop.verify(received, caller), Role.TARGET_WL);
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

    /**
     * The request's headers as a view that reads a header when the hop asks for it: a mode without a
     * document reads one, the others none (an {@code HttpHeaders} parameter copied every header into
     * a case-insensitive map on every request).
     */
    private static HttpHeaders headers(HttpServletRequest request) {
        return new ServletServerHttpRequest(request).getHeaders();
    }
}
