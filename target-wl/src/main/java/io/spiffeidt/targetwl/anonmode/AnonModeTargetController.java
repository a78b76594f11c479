package io.spiffeidt.targetwl.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.zkp.IdpKeyResolver;
import io.spiffeidt.support.anonmode.AnonModeHop;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.DocumentRequest;
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
 * Anon-Mode at the target (docs/design.md, Anon-Mode row; docs/formats/anon-mode.md "Verification"): the
 * concatenated verification of the whole token, then the root binding (step 5): the asserting
 * workload must know the root {@code P(0).R(0)} ({@code POST /anon-mode/introspect}) and its proof
 * must show an IdP-signed OAuth token for the root's {@code dpa}/{@code dpr}. The account is the
 * root's {@code dpr}.
 *
 * <p>The path this mode reveals: the asserting workload (known from introspection), one entry per
 * hop, which is {@code anonymous} unless the hop wrote an {@code iid} (original-compatible runs
 * only; an unverified claim of the hop), and this workload.
 */
@RestController
@RequestMapping("/anon-mode")
public class AnonModeTargetController {

    private static final Mode MODE = Mode.ANON_MODE;

    /** The path entry of a hop that does not name itself. */
    static final String ANONYMOUS_HOP = "anonymous";

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final AccountOperations accounts;
    private final AnonModeHop hop;
    private final IdpKeyResolver idpKeys;

    public AnonModeTargetController(
            DownstreamClients clients,
            OperationMetrics metrics,
            AccountOperations accounts,
            AnonModeHop hop,
            OAuthTokenVerifier oauth) {
        this.clients = clients;
        this.metrics = metrics;
        this.accounts = accounts;
        this.hop = hop;
        // the proof is checked under the IdP key this workload resolves itself, never the answer's
        this.idpKeys = oauth::idpKey;
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request) {
        VerifiedResult verified = validate(request.token());
        return accounts.balance(MODE, verified.delegation(), path(request.token(), verified));
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.M_TIER)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request) {
        VerifiedResult verified = validate(request.token());
        return accounts.deposit(MODE, verified.delegation(), request.amount(), path(request.token(), verified));
    }

    private VerifiedResult validate(String token) {
        VerifiedResult verified = metrics.time(MODE, Operation.VALIDATE, () -> hop.verify(token));
        introspect(hop.rootIdentifier(token), verified.delegation());
        return verified;
    }

    /**
     * Root binding: only the root goes to the asserting workload, never the hops or the bearer key.
     * The proof must show that the asserting workload holds an IdP-signed OAuth token of iss = dpa,
     * sub = dpr; the IdP key is the one this workload resolves from the issuer's JWKS by kid.
     */
    private void introspect(String root, Delegation delegation) {
        try {
            hop.proofs()
                    .introspect(root, delegation, idpKeys, metrics, offered -> clients.client(MODE, Role.ASSERTING_WL)
                            .post(
                                    "/anon-mode/introspect",
                                    new AnonModeIntrospectRequest(root, offered),
                                    IntrospectionAnswer.class));
        } catch (AssertionException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY,
                        0,
                        "the root is unknown to " + hop.idOf(Role.ASSERTING_WL) + " (introspection)");
            }
            throw e;
        }
    }

    /**
     * The asserting workload, then every hop from the innermost outwards (its {@code iid}, or
     * {@value #ANONYMOUS_HOP}), then this workload.
     */
    private List<String> path(String token, VerifiedResult verified) {
        List<String> path = new ArrayList<>(verified.depth() + 1);
        path.add(hop.idOf(Role.ASSERTING_WL).toString());
        hop.hopIdentities(token)
                .forEach(id -> path.add(id.map(SpiffeId::toString).orElse(ANONYMOUS_HOP)));
        path.add(hop.self().toString());
        return path;
    }
}
