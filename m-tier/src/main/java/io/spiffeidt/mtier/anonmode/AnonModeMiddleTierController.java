package io.spiffeidt.mtier.anonmode;

import io.spiffeidt.core.Mode;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import jakarta.validation.Valid;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Anon-Mode at the middle tier (docs/design.md, Anon-Mode row): concatenated verification of the token
 * (the root addressed to the subject workload), then, unless switched off, one more anonymous layer
 * signed with the key the token hands over, and the token is forwarded to the target. The root's
 * binding to the asserting workload is checked by the target (introspection).
 */
@RestController
@RequestMapping("/anon-mode")
public class AnonModeMiddleTierController {

    private static final Mode MODE = Mode.ANON_MODE;

    private final DownstreamClients clients;
    private final AnonModeHop hop;
    private final boolean extend;

    public AnonModeMiddleTierController(
            DownstreamClients clients, AnonModeHop hop, AnonModeMiddleTierProperties properties) {
        this.clients = clients;
        this.hop = hop;
        this.extend = properties.extend();
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/anon-mode/balance", request, caller);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/anon-mode/deposit", request, caller);
    }

    /** Verify, extend unless switched off, call the target, answer its answer. */
    private AccountResponse forward(String path, DocumentRequest request, Caller caller) {
        Verified<String> verified = hop.verify(Received.of(request), caller);
        Outgoing outgoing = extend ? hop.forward(verified, Role.TARGET_WL) : verified.unchanged();
        return clients.client(MODE, Role.TARGET_WL)
                .post(Operation.TARGET_CALL, path, outgoing.request(request.amount()), AccountResponse.class);
    }
}
