package io.spiffeidt.targetwl.idmode;

import io.spiffeidt.core.Mode;
import io.spiffeidt.core.Presenter;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.caller.Caller;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.idmode.IdModeHop;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.targetwl.account.AccountOperations;
import jakarta.validation.Valid;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode at the target (docs/design.md, ID-Mode row): verifies the whole chain and its presenter (the
 * mTLS peer, by SPIFFE ID and key), optionally introspects the root at the asserting workload and
 * checks the proof against the root's {@code dpa}/{@code dpr}, then serves the account of {@code dpr}
 * with the verified path (the issuers from the asserting workload outwards, then this workload).
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeTargetController {

    private static final Mode MODE = Mode.ID_MODE;

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final AccountOperations accounts;
    private final IdModeHop hop;
    private final IdpKeyResolver idpKeys;
    private final boolean introspect;

    public IdModeTargetController(
            DownstreamClients clients,
            OperationMetrics metrics,
            AccountOperations accounts,
            IdModeHop hop,
            OAuthTokenVerifier oauth,
            IdModeTargetProperties properties) {
        this.clients = clients;
        this.metrics = metrics;
        this.accounts = accounts;
        this.hop = hop;
        // the proof is checked under the IdP key this workload resolves itself, never the answer's
        this.idpKeys = oauth::idpKey;
        this.introspect = properties.introspect();
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request, Caller caller) {
        VerifiedIdMode verified = validate(request, caller);
        return accounts.balance(MODE, verified.result().delegation(), path(verified));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request, Caller caller) {
        VerifiedIdMode verified = validate(request, caller);
        return accounts.deposit(MODE, verified.result().delegation(), request.amount(), path(verified));
    }

    private VerifiedIdMode validate(DocumentRequest request, Caller caller) {
        VerifiedIdMode verified = metrics.time(
                MODE,
                Operation.VALIDATE,
                () -> hop.verify(request.token(), request.artifacts(), Presenter.of(caller.leaf())));
        if (introspect) {
            introspect(verified);
        }
        return verified;
    }

    /**
     * Asks the asserting workload about the root only (the path beyond it is none of its business).
     * The proof must show that the asserting workload holds an IdP-signed OAuth token of iss = dpa,
     * sub = dpr; the IdP key is the one this workload resolves from the issuer's JWKS by kid.
     */
    private void introspect(VerifiedIdMode verified) {
        String root = hop.rootOf(verified.presentation().token());
        hop.proofs().introspect(root, verified.result().delegation(), idpKeys, metrics, offered -> clients.client(
                        MODE, Role.ASSERTING_WL)
                .post("/id-mode/introspect", IntrospectRequest.of(root, offered), IntrospectionAnswer.class));
    }

    private List<String> path(VerifiedIdMode verified) {
        List<String> path = new ArrayList<>(verified.path().size() + 1);
        verified.path().forEach(id -> path.add(id.toString()));
        path.add(hop.self().toString());
        return path;
    }
}
