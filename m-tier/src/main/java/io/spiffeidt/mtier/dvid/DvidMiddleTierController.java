package io.spiffeidt.mtier.dvid;

import io.spiffeidt.core.Delegation;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.IdpKeyResolver;
import io.spiffeidt.core.dvid.VerifiedDvid;
import io.spiffeidt.mtier.config.MiddleTierProperties;
import io.spiffeidt.support.caller.AllowedCallers;
import io.spiffeidt.support.client.DownstreamClient;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.ProofCheck;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.IntrospectRequest;
import io.spiffeidt.support.wire.IntrospectionAnswer;
import io.spiffeidt.support.wire.ValidateRequest;
import io.spiffeidt.support.wire.ValidateResponse;
import jakarta.validation.Valid;
import java.util.function.Function;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * DVID at the middle tier (docs/design.md, DVID row): remote validation at the asserting workload, then
 * its introspection and the proof check against the DVID's {@code dpa}/{@code dpr}; the DVID is
 * forwarded unchanged. With the memo {@code oauth-proof} on the validation and the introspection are
 * one call ({@code /dvid/validate} with {@code "introspect": true}), so that the asserting workload
 * verifies the DVID once per request; with it off they are two calls, as in the original.
 */
@RestController
@RequestMapping("/dvid")
public class DvidMiddleTierController {

    private static final Mode MODE = Mode.DVID;

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final DvidHop hop;
    private final IdpKeyResolver idpKeys;
    private final boolean introspect;
    private final boolean oneCall;

    public DvidMiddleTierController(
            DownstreamClients clients,
            OperationMetrics metrics,
            DvidHop hop,
            MiddleTierProperties properties,
            OAuthTokenVerifier oauth) {
        this.clients = clients;
        this.metrics = metrics;
        this.hop = hop;
        // the proof is checked under the IdP key this workload resolves itself, never the answer's
        this.idpKeys = oauth::idpKey;
        this.introspect = properties.dvid().introspect();
        this.oneCall = introspect && hop.introspectsInOneCall();
    }

    @PostMapping("/balance")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse balance(@Valid @RequestBody DocumentRequest request) {
        return forward("/dvid/balance", request);
    }

    @PostMapping("/deposit")
    @AllowedCallers(Role.SUBJECT_WL)
    public AccountResponse deposit(@Valid @RequestBody DocumentRequest request) {
        return forward("/dvid/deposit", request);
    }

    private AccountResponse forward(String path, DocumentRequest request) {
        DownstreamClient asserting = clients.client(MODE, Role.ASSERTING_WL);
        String token = request.token();
        Function<String, IntrospectionAnswer> introspection = offered ->
                asserting.post("/dvid/introspect", IntrospectRequest.of(token, offered), IntrospectionAnswer.class);
        ProofCheck.Offer offer = oneCall ? hop.proofs().offer(token) : null;
        ValidateRequest validate =
                oneCall ? ValidateRequest.introspecting(token, offer.digest()) : ValidateRequest.of(token);
        ValidateResponse validated = metrics.time(
                MODE,
                Operation.VALIDATE_CALL,
                () -> asserting.post("/dvid/validate", validate, ValidateResponse.class));
        VerifiedDvid dvid = metrics.time(MODE, Operation.VALIDATE, () -> hop.acceptValidation(validated));
        Delegation delegation = dvid.result().delegation();
        if (oneCall) {
            hop.proofs().check(token, delegation, idpKeys, metrics, offer, validated.introspection(), introspection);
        } else if (introspect) {
            hop.proofs().introspect(token, delegation, idpKeys, metrics, introspection);
        }
        DownstreamClient target = clients.client(MODE, Role.TARGET_WL);
        return metrics.time(MODE, Operation.TARGET_CALL, () -> target.post(path, request, AccountResponse.class));
    }
}
