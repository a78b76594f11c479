package io.spiffeidt.subject.flow;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.support.client.DownstreamClients;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.metrics.Operation;
import io.spiffeidt.support.metrics.OperationMetrics;
import io.spiffeidt.support.wire.AccessTokenRequest;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.DocumentRequest;
import io.spiffeidt.support.wire.MintResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** DVID at the subject workload: minted by the asserting workload, forwarded unchanged. */
@Component
public class DvidSubjectFlow implements SubjectFlow {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

    private final DownstreamClients clients;
    private final OperationMetrics metrics;
    private final JsonMapper json;

    public DvidSubjectFlow(DownstreamClients clients, OperationMetrics metrics, JsonMapper json) {
        this.clients = clients;
        this.metrics = metrics;
        this.json = json;
    }

    @Override
    public Mode mode() {
        return Mode.DVID;
    }

    @Override
    public MintedDocument mint(String accessToken) {
        MintResponse minted =
                metrics.time(Mode.DVID, Operation.MINT_CALL, () -> clients.client(Mode.DVID, Role.ASSERTING_WL)
                        .post("/dvid/mint", new AccessTokenRequest(accessToken), MintResponse.class));
        String[] parts = minted.token().split("\\.", -1);
        if (parts.length != 3) {
            throw new AssertionException(ErrorCode.MALFORMED, "the asserting workload answered a malformed DVID");
        }
        Map<String, Object> header = decode(parts[0]);
        Map<String, Object> claims = decode(parts[1]);
        Object exp = claims.get("exp");
        if (!(exp instanceof Number n)) {
            throw new AssertionException(ErrorCode.MALFORMED, "DVID without exp");
        }
        KeptDocument kept = new KeptDocument(minted.token(), null, Instant.ofEpochSecond(n.longValue()));
        return new MintedDocument(kept, header, claims);
    }

    @Override
    public AccountResponse use(KeptDocument document, String operation, Long amount) {
        return metrics.time(Mode.DVID, Operation.MTIER_CALL, () -> clients.client(Mode.DVID, Role.M_TIER)
                .post(
                        "/dvid/" + operation,
                        new DocumentRequest(document.token(), amount, null),
                        AccountResponse.class));
    }

    private Map<String, Object> decode(String segment) {
        try {
            return json.readValue(new String(Base64.getUrlDecoder().decode(segment), StandardCharsets.UTF_8), MAP);
        } catch (RuntimeException e) {
            throw new AssertionException(ErrorCode.MALFORMED, "undecodable DVID segment");
        }
    }
}
