package io.spiffeidt.targetwl.anonmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.core.VerifiedResult;
import io.spiffeidt.core.anonmode.AnonModeVerifier;
import io.spiffeidt.core.dvid.IdpKeyResolver;
import io.spiffeidt.core.internal.Codec;
import io.spiffeidt.core.internal.Json;
import io.spiffeidt.core.zkp.OAuthProof;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.identity.WorkloadIdentity;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.AnonModeIntrospectRequest;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.targetwl.api.AccountOperations;
import jakarta.validation.Valid;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Anon-Mode at the target (DESIGN.md, Anon-Mode row; spec/anon-mode.md "Verification"): the
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
    private final AnonModeVerifier verifier;
    private final IdpKeyResolver idpKeys;
    private final VerificationProfile profile;
    private final Limits limits;
    private final SpiffeId self;
    private final SpiffeId asserting;

    public AnonModeTargetController(
            DownstreamClients clients,
            OperationMetrics metrics,
            AccountOperations accounts,
            AnonModeVerifier verifier,
            OAuthTokenVerifier oauth,
            VerificationProfile profile,
            Limits limits,
            WorkloadIdentity identity) {
        this.clients = clients;
        this.metrics = metrics;
        this.accounts = accounts;
        this.verifier = verifier;
        // the proof is checked under the IdP key this workload resolves itself, never the answer's
        this.idpKeys = oauth::idpKey;
        this.profile = profile;
        this.limits = limits;
        this.self = identity.self();
        this.asserting = identity.idOf(Role.ASSERTING_WL);
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
        VerifiedResult verified = metrics.time(MODE, Operation.VALIDATE, () -> verifier.verify(token, self));
        introspect(verifier.rootIdentifier(token), verified.delegation());
        return verified;
    }

    /** Root binding: only the root goes to the asserting workload, never the hops or the bearer key. */
    private void introspect(String root, Delegation delegation) {
        OAuthProof answer;
        try {
            answer = metrics.time(MODE, Operation.INTROSPECT_CALL, () -> clients.client(MODE, Role.ASSERTING_WL)
                    .post("/anon-mode/introspect", new AnonModeIntrospectRequest(root), OAuthProof.class));
        } catch (AssertionException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
                throw new AssertionException(
                        ErrorCode.UNTRUSTED_KEY, 0, "the root is unknown to " + asserting + " (introspection)");
            }
            throw e;
        }
        // the proof must show that the asserting workload holds an IdP-signed OAuth token of iss = dpa,
        // sub = dpr; the IdP key is the one this workload resolves from the issuer's JWKS by kid
        metrics.run(
                MODE,
                Operation.ZKP_VERIFICATION,
                () -> answer.verify(delegation.dpa(), delegation.dpr(), idpKeys, profile, limits));
    }

    /**
     * The asserting workload, then every hop from the innermost outwards, then this workload. Reads
     * the payloads of a token that has been verified: {@code P(L-1) . … . P(0) . …}.
     */
    private List<String> path(String token, VerifiedResult verified) {
        int depth = verified.depth();
        String[] parts = token.split("\\.", -1);
        List<String> path = new ArrayList<>(depth + 1);
        path.add(asserting.toString());
        for (int i = 1; i < depth; i++) {
            Map<String, Object> claims = Json.parseObject(Codec.utf8(Codec.fromB64url(parts[depth - 1 - i])));
            Object iid = claims.get("iid");
            path.add(
                    iid instanceof String s && SpiffeId.isValid(s)
                            ? SpiffeId.parse(s).toString()
                            : ANONYMOUS_HOP);
        }
        path.add(self.toString());
        return path;
    }
}
