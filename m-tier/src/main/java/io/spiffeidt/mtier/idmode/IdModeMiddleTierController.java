package io.spiffeidt.mtier.idmode;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.hop.Outgoing;
import io.spiffeidt.support.hop.Received;
import io.spiffeidt.support.hop.Verified;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import jakarta.validation.Valid;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode at the middle tier (docs/design.md, ID-Mode row): verifies the token and its presenter (the
 * mTLS peer, by SPIFFE ID and key), extends it with {@code aud} = the target workload, and forwards
 * the longer token with its artifacts. Outside the {@code thesis} pooling profile the same token
 * received again gets the same young extension ({@link IdModeHop#forward}).
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeMiddleTierController {

    private static final Mode MODE = Mode.ID_MODE;

    private final DownstreamClients clients;
    private final IdModeHop hop;

    public IdModeMiddleTierController(DownstreamClients clients, IdModeHop hop) {
        this.clients = clients;
        this.hop = hop;
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/id-mode/balance", request, caller);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        return forward("/id-mode/deposit", request, caller);
    }

    /** Verify, extend, call the target, answer its answer. */
    private AccountResponse forward(String path, DocumentRequest request, Caller caller) {
        Verified<VerifiedIdMode> verified = hop.verify(Received.of(request), caller);
        Outgoing outgoing = hop.forward(verified, Role.TARGET_WL);
        return clients.client(MODE, Role.TARGET_WL)
                .post(Operation.TARGET_CALL, path, outgoing.request(request.amount()), AccountResponse.class);
    }
}
