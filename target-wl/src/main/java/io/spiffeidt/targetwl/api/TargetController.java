package io.spiffeidt.targetwl.api;

import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.hop.Hop;
import io.spiffeidt.support.hop.Introspection;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.RequestHeaders;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.IdempotencyKey;
import io.spiffeidt.targetwl.account.AccountOperations;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import java.util.List;
import java.util.Optional;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;

/**
 * The target's protocol, the same in every mode (docs/design.md "The hop contract"): receive what the
 * middle tier sent ({@link Hop#receive}: the body's document, or a baseline's header), verify it
 * ({@link Hop#verify}, or with the hop's {@link Hop#introspection()} where the mode's controller asks
 * for it), then serve the account of the verified delegation with the
 * path the mode reveals ({@link #path}). Each mode's controller ({@code @RequestMapping("/<mode>")})
 * extends this class with its hop.
 *
 * @param <D> the mode's verified document
 */
public abstract class TargetController<D> {

    private final AccountOperations accounts;

    /** The mode's hop. */
    protected final Hop<D> hop;

    private final Optional<Introspection<D>> introspection;

    /** A target that verifies with {@link Hop#verify} alone. */
    protected TargetController(AccountOperations accounts, Hop<D> hop) {
        this(accounts, hop, false);
    }

    /**
     * @param introspects whether the target binds the root to the asserting workload too ({@link
     *     Hop#introspection()}, which the mode must have)
     */
    protected TargetController(AccountOperations accounts, Hop<D> hop, boolean introspects) {
        this.accounts = accounts;
        this.hop = hop;
        this.introspection = introspects ? Optional.of(introspectionOf(hop)) : Optional.empty();
    }

    private static <D> Introspection<D> introspectionOf(Hop<D> hop) {
        return hop.introspection()
                .orElseThrow(() -> new IllegalStateException(hop.mode().pathSegment() + " has no introspection"));
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(
            @Valid @RequestBody DocumentRequest request, HttpServletRequest servletRequest, Caller caller) {
        Verified<D> verified = verify(hop.receive(request, RequestHeaders.of(servletRequest)), caller);
        return accounts.balance(hop.mode(), verified.delegation(), path(verified));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(
            @Valid @RequestBody DocumentRequest request,
            @RequestHeader(value = IdempotencyKey.HEADER, required = false) String idempotencyKey,
            HttpServletRequest servletRequest,
            Caller caller) {
        Verified<D> verified = verify(hop.receive(request, RequestHeaders.of(servletRequest)), caller);
        return accounts.deposit(
                hop.mode(),
                verified.delegation(),
                request.amount(),
                IdempotencyKey.parse(idempotencyKey),
                path(verified));
    }

    /** Every check of the mode at the target: the hop's verification, with its introspection where asked for. */
    private Verified<D> verify(Received received, Caller caller) {
        return introspection.isPresent() ? introspection.get().verify(received, caller) : hop.verify(received, caller);
    }

    /** The call path the mode reveals, ending with this workload. */
    protected abstract List<String> path(Verified<D> verified);
}
