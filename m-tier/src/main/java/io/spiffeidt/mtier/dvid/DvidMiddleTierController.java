package io.spiffeidt.mtier.dvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.mtier.config.MiddleTierProperties;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.dvid.DvidHop;
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
 * DVID at the middle tier (docs/design.md, DVID row): validation at the asserting workload, then its
 * introspection and the proof check against the DVID's {@code dpa}/{@code dpr} ({@link
 * DvidHop#verifyIntrospected}: one call outside the {@code thesis} profile, two under it, as in the
 * original); the DVID is forwarded unchanged.
 */
@RestController
@RequestMapping("/dvid")
public class DvidMiddleTierController {

    private static final Mode MODE = Mode.DVID;

    private final DownstreamClients clients;
    private final DvidHop hop;
    private final boolean introspect;

    public DvidMiddleTierController(DownstreamClients clients, DvidHop hop, MiddleTierProperties properties) {
        this.clients = clients;
        this.hop = hop;
        this.introspect = properties.dvid().introspect();
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/dvid/balance", request, caller);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/dvid/deposit", request, caller);
    }

    /** Verify, forward it unchanged, call the target, answer its answer. */
    private AccountResponse forward(String path, DocumentRequest request, Caller caller) {
        Received received = Received.of(request);
        Verified<VerifiedDvid> verified =
                introspect ? hop.verifyIntrospected(received, caller) : hop.verify(received, caller);
        Outgoing outgoing = hop.forward(verified, Role.TARGET_WL);
        return clients.client(MODE, Role.TARGET_WL)
                .post(Operation.TARGET_CALL, path, outgoing.request(request.amount()), AccountResponse.class);
    }
}
