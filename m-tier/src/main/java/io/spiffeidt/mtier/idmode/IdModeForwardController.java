package io.spiffeidt.mtier.idmode;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeExtender;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.core.idmode.Presenter;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.support.AllowedCallers;
import io.spiffeidt.support.Caller;
import io.spiffeidt.support.DownstreamClients;
import io.spiffeidt.support.OperationMetrics;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.SvidBound;
import io.spiffeidt.support.WorkloadIdentity;
import io.spiffeidt.support.api.AccountResponse;
import io.spiffeidt.support.api.DocumentRequest;
import jakarta.validation.Valid;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * ID-Mode at the middle tier (DESIGN.md, ID-Mode row): verifies the token and its presenter (the
 * mTLS peer, by SPIFFE ID and key), extends it with {@code aud} = the target workload, and forwards
 * the longer token with its artifacts.
 */
@RestController
@RequestMapping("/id-mode")
public class IdModeForwardController {

    private static final Mode MODE = Mode.ID_MODE;

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final IdModeVerifier verifier;
    private final SvidBound<IdModeCredentials> signing;
    private final SignatureProvider provider;
    private final TimeRules timeRules;
    private final Limits limits;
    private final SpiffeId self;
    private final SpiffeId target;

    public IdModeForwardController(
            DownstreamClients clients,
            OperationMetrics metrics,
            IdModeVerifier verifier,
            SvidBound<IdModeCredentials> signing,
            SignatureProvider provider,
            TimeRules timeRules,
            Limits limits,
            WorkloadIdentity identity) {
        this.clients = clients;
        this.metrics = metrics;
        this.verifier = verifier;
        this.signing = signing;
        this.provider = provider;
        this.timeRules = timeRules;
        this.limits = limits;
        this.self = identity.self();
        this.target = identity.idOf(Role.TARGET_WL);
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

    private AccountResponse forward(String path, DocumentRequest request, Caller caller) {
        if (request.artifacts() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "ID-Mode token without artifacts");
        }
        VerifiedIdMode verified = metrics.time(
                MODE,
                "validate",
                () -> verifier.verify(
                        request.token(),
                        IdModeArtifacts.parse(request.artifacts(), limits),
                        self,
                        new Presenter(caller.id(), caller.publicKey())));
        IdModePresentation extended = metrics.time(
                MODE, "extend", () -> new IdModeExtender(signing.get(), timeRules, limits, provider.provider())
                        .extend(verified, target));
        metrics.recordDocumentSize(MODE, verified.depth() + 1, extended.size().totalBytes());
        DocumentRequest forwarded = new DocumentRequest(
                extended.token(), request.amount(), extended.artifacts().toJson());
        return metrics.time(MODE, "target_request", () -> clients.client(MODE, Role.TARGET_WL)
                .post(path, forwarded, AccountResponse.class));
    }
}
