package io.spiffeidt.mtier.lsvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.lsvid.LsvidVerification;
import io.spiffeidt.core.lsvid.LsvidVerifier.DelegationRule;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.lsvid.LsvidHop;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
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
    private final OperationMetrics metrics;
    private final LsvidHop hop;
    private final SpiffeId target;

    public LsvidMiddleTierController(
            DownstreamClients clients, OperationMetrics metrics, LsvidHop hop, WorkloadIdentity identity) {
        this.clients = clients;
        this.metrics = metrics;
        this.hop = hop;
        this.target = identity.idOf(Role.TARGET_WL);
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

    private AccountResponse forward(String path, DocumentRequest request, Caller caller) {
        Presenter presenter = Presenter.of(caller.leaf());
        LsvidVerification verified = metrics.time(MODE, Operation.VALIDATE, () -> hop.verifier()
                .verify(request.token(), hop.self(), presenter, DelegationRule.REQUIRED));
        LsvidHop.Extension extended =
                metrics.time(MODE, Operation.EXTEND, () -> hop.forward(verified.document(), target));
        metrics.recordDocumentSize(
                MODE, extended.document().depth(), extended.encoded().length());
        DocumentRequest forwarded = new DocumentRequest(extended.encoded(), request.amount(), null);
        return metrics.time(MODE, Operation.TARGET_CALL, () -> clients.client(MODE, Role.TARGET_WL)
                .post(path, forwarded, AccountResponse.class));
    }
}
