package io.spiffeidt.targetwl.dvid;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.dvid.DvidKeySet;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import io.spiffeidt.targetwl.account.AccountOperations;
import jakarta.validation.Valid;
import java.util.List;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * DVID at the target (docs/design.md, DVID row): {@code sub} must be the subject workload; the account
 * is the DVID's {@code dpr}. With the memo {@code dvid-keys} off every DVID is validated remotely
 * at the asserting workload, as in the original; with it on the target verifies it itself, with the
 * asserting workload's keys it holds ({@link DvidKeySet}), the same checks without a call per
 * request (docs/formats/dvid.md §6).
 */
@RestController
@RequestMapping("/dvid")
public class DvidTargetController {

    private static final Mode MODE = Mode.DVID;

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final AccountOperations accounts;
    private final DvidHop hop;

    /** Verifies DVIDs here; {@code null} with the memo {@code dvid-keys} off (validated remotely). */
    private final DvidVerifier here;

    public DvidTargetController(
            DownstreamClients clients,
            OperationMetrics metrics,
            AccountOperations accounts,
            DvidHop hop,
            OAuthTokenVerifier oauth) {
        this.clients = clients;
        this.metrics = metrics;
        this.accounts = accounts;
        this.hop = hop;
        this.here = hop.localVerifier(this::fetchKeys, oauth::idpKey);
    }

    /** Rare (see DvidKeySet), so no operation of its own: http.client.requests counts it. */
    private String fetchKeys() {
        return clients.client(MODE, Role.ASSERTING_WL).get("/dvid/keys", String.class);
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request) {
        VerifiedDvid dvid = validate(request);
        return accounts.balance(MODE, dvid.result().delegation(), path(dvid));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request) {
        VerifiedDvid dvid = validate(request);
        return accounts.deposit(MODE, dvid.result().delegation(), request.amount(), path(dvid));
    }

    private VerifiedDvid validate(DocumentRequest request) {
        if (here != null) {
            return metrics.time(MODE, Operation.VALIDATE, () -> hop.verifyHere(here, request.token()));
        }
        ValidateResponse validated =
                metrics.time(MODE, Operation.VALIDATE_CALL, () -> clients.client(MODE, Role.ASSERTING_WL)
                        .post("/dvid/validate", ValidateRequest.of(request.token()), ValidateResponse.class));
        return metrics.time(MODE, Operation.VALIDATE, () -> hop.acceptValidation(validated));
    }

    private static List<String> path(VerifiedDvid dvid) {
        return List.of(dvid.result().delegation().assertedBy(), dvid.subject().toString());
    }
}
