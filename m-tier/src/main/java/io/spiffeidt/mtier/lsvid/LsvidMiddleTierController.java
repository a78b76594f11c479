package io.spiffeidt.mtier.lsvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.lsvid.Lsvid;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import jakarta.validation.Valid;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * LSVID at the middle tier (docs/design.md, LSVID row): verifies the document offline (anchored bases,
 * every layer, the pinned delegation, audience = this workload, bearer = the mTLS peer by name and
 * key), extends it with {@code aud} = the target and forwards it (a young extension of the same
 * document is reused, see {@link LsvidHop#forward}). No call to the asserting workload.
 */
@RestController
@RequestMapping("/lsvid")
public class LsvidMiddleTierController {

    private static final Mode MODE = Mode.LSVID;

    private final DownstreamClients clients;
    private final LsvidHop hop;

    public LsvidMiddleTierController(DownstreamClients clients, LsvidHop hop) {
        this.clients = clients;
        this.hop = hop;
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/lsvid/balance", request, caller);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/lsvid/deposit", request, caller);
    }

    /** Verify, extend, call the target, answer its answer. */
    private AccountResponse forward(String path, DocumentRequest request, Caller caller) {
        Verified<Lsvid> verified = hop.verify(Received.of(request), caller);
        Outgoing outgoing = hop.forward(verified, Role.TARGET_WL);
        return clients.client(MODE, Role.TARGET_WL)
                .post(Operation.TARGET_CALL, path, outgoing.request(request.amount()), AccountResponse.class);
    }
}
