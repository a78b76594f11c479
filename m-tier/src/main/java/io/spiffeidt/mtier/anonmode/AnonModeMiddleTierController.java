package io.spiffeidt.mtier.anonmode;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
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
    private final OperationMetrics metrics;
    private final AnonModeHop hop;
    private final boolean extend;

    public AnonModeMiddleTierController(
            DownstreamClients clients,
            OperationMetrics metrics,
            AnonModeHop hop,
            AnonModeMiddleTierProperties properties) {
        this.clients = clients;
        this.metrics = metrics;
        this.hop = hop;
        this.extend = properties.extend();
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request) {
        return forward("/anon-mode/balance", request);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request) {
        return forward("/anon-mode/deposit", request);
    }

    private AccountResponse forward(String path, DocumentRequest request) {
        VerifiedResult verified = metrics.time(MODE, Operation.VALIDATE, () -> hop.verify(request.token()));
        String token = request.token();
        if (extend) {
            token = metrics.time(MODE, Operation.EXTEND, () -> hop.forward(request.token()));
            metrics.recordDocumentSize(MODE, verified.depth() + 1, token.length());
        }
        DocumentRequest forwarded = new DocumentRequest(token, request.amount(), null);
        return metrics.time(MODE, Operation.TARGET_CALL, () -> clients.client(MODE, Role.TARGET_WL)
                .post(path, forwarded, AccountResponse.class));
    }
}
