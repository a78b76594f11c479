package io.spiffeidt.subject.flow;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.idmode.IdModeArtifacts;
import io.spiffeidt.core.idmode.IdModeClaims;
import io.spiffeidt.core.idmode.IdModeCredentials;
import io.spiffeidt.core.idmode.IdModeExtender;
import io.spiffeidt.core.idmode.IdModePresentation;
import io.spiffeidt.core.idmode.IdModeToken;
import io.spiffeidt.core.idmode.IdModeVerifier;
import io.spiffeidt.core.idmode.VerifiedIdMode;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.DownstreamClients;
import io.spiffeidt.support.OperationMetrics;
import io.spiffeidt.support.Role;
import io.spiffeidt.support.SignatureProvider;
import io.spiffeidt.support.SvidBound;
import io.spiffeidt.support.WorkloadIdentity;
import io.spiffeidt.support.api.AccessTokenRequest;
import io.spiffeidt.support.api.AccountResponse;
import io.spiffeidt.support.api.DocumentRequest;
import io.spiffeidt.support.api.MintResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * ID-Mode at the subject workload (DESIGN.md, ID-Mode row): the asserting workload mints the root
 * addressed to this workload; it is verified when received and again before each use, and every use
 * extends it with a fresh layer addressed to the middle tier, signed with this workload's SVID key.
 */
@Component
public class IdModeSubjectFlow implements SubjectFlow {

    private static final Mode MODE = Mode.ID_MODE;

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final IdModeVerifier verifier;
    private final SvidBound<IdModeCredentials> signing;
    private final SignatureProvider provider;
    private final TimeRules timeRules;
    private final Limits limits;
    private final SpiffeId self;
    private final SpiffeId mtier;

    public IdModeSubjectFlow(
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
        this.mtier = identity.idOf(Role.M_TIER);
    }

    @Override
    public Mode mode() {
        return MODE;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        MintResponse minted = metrics.time(MODE, "mint", () -> clients.client(MODE, Role.ASSERTING_WL)
                .post("/id-mode/ecdsa-assertion", new AccessTokenRequest(accessToken), MintResponse.class));
        if (minted.token() == null || minted.artifacts() == null) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered no ID-Mode root");
        }
        VerifiedIdMode root = verify(minted.token(), minted.artifacts());
        if (root.depth() != 1) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered more than a root");
        }
        KeptDocument kept = new KeptDocument(
                minted.token(), minted.artifacts(), root.result().outermost().expiresAt());
        return new MintedDocument(
                kept, null, claims(IdModeToken.parse(minted.token(), limits).claims(0)));
    }

    @Override
    public AccountResponse use(KeptDocument document, String operation, Long amount) {
        VerifiedIdMode root = verify(document.token(), document.artifacts());
        IdModePresentation extended = metrics.time(
                MODE, "extend", () -> new IdModeExtender(signing.get(), timeRules, limits, provider.provider())
                        .extend(root, mtier));
        metrics.recordDocumentSize(MODE, root.depth() + 1, extended.size().totalBytes());
        DocumentRequest request = new DocumentRequest(
                extended.token(), amount, extended.artifacts().toJson());
        return clients.client(MODE, Role.M_TIER).post("/id-mode/" + operation, request, AccountResponse.class);
    }

    /**
     * The root came from the asserting workload over a client connection that authorized its SPIFFE
     * ID, so there is no presenter to bind; every other check runs, with this workload as audience.
     */
    private VerifiedIdMode verify(String token, String artifacts) {
        return metrics.time(
                MODE,
                "validate",
                () -> verifier.verifyWithoutPresenter(token, IdModeArtifacts.parse(artifacts, limits), self));
    }

    private static Map<String, Object> claims(IdModeClaims c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("aud", c.audience().toString());
        m.put("dpa", c.dpa());
        m.put("dpr", c.dpr());
        m.put("exp", c.expiresAt() == null ? null : c.expiresAt().getEpochSecond());
        m.put("iat", c.issuedAt().getEpochSecond());
        m.put("iss", c.issuer().toString());
        return m;
    }
}
