package io.spiffeidt.subject.api;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.subject.flow.MintedDocument;
import io.spiffeidt.subject.flow.SubjectFlow;
import io.spiffeidt.subject.session.DocumentSessions;
import io.spiffeidt.subject.session.KeptDocument;
import io.spiffeidt.subject.session.UserKey;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import io.spiffeidt.support.oauth.VerifiedOAuthToken;
import io.spiffeidt.support.wire.AccountResponse;
import io.spiffeidt.support.wire.IdempotencyKey;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The user-facing JSON API: {@code POST /api/{mode}/mint}, {@code /balance}, {@code /deposit} with
 * the user's OAuth access token as {@code Authorization: Bearer}. A deposit may carry an {@code
 * Idempotency-Key}, which travels to the target (docs/formats/common.md "Idempotent deposits").
 */
@RestController
@RequestMapping("/api/{mode}")
public class SubjectApiController {

    private static final Logger log = LoggerFactory.getLogger(SubjectApiController.class);

    private final OAuthTokenVerifier oauth;
    private final DocumentSessions sessions;
    private final Map<Mode, SubjectFlow> flows = new EnumMap<>(Mode.class);

    /**
     * Every {@link SubjectFlow} bean serves its mode.
     *
     * @throws IllegalStateException at start-up when a mode has no flow or two
     */
    public SubjectApiController(OAuthTokenVerifier oauth, DocumentSessions sessions, List<SubjectFlow> flows) {
        this.oauth = oauth;
        this.sessions = sessions;
        for (SubjectFlow flow : flows) {
            if (this.flows.put(flow.mode(), flow) != null) {
                throw new IllegalStateException("two flows for " + flow.mode());
            }
        }
        for (Mode mode : Mode.values()) {
            if (!this.flows.containsKey(mode)) {
                throw new IllegalStateException("no flow for " + mode);
            }
        }
    }

    @PostMapping("/mint")
    public Map<String, Object> mint(
            @PathVariable("mode") String mode,
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        SubjectFlow flow = flow(mode);
        String accessToken = bearer(authorization);
        VerifiedOAuthToken verified = oauth.verify(flow.mode(), accessToken);
        UserKey user = new UserKey(verified.issuer(), verified.subject());
        MintedDocument minted = flow.mint(accessToken, verified);
        sessions.keep(user, flow.mode(), minted.document());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", flow.mode().pathSegment());
        body.put("user", user.subject());
        if (minted.shown()) {
            body.put("token", minted.document().token());
            if (minted.document().artifacts() != null) {
                body.put("artifacts", minted.document().artifacts());
            }
        }
        // a mode without a document: the size of what travels in its place (the text is never answered)
        body.put("size", minted.document().token().length());
        if (minted.header() != null) {
            body.put("header", minted.header());
        }
        body.put("claims", minted.claims());
        body.put("expiresAt", minted.document().expiresAt());
        return body;
    }

    @PostMapping("/balance")
    public Map<String, Object> balance(
            @PathVariable("mode") String mode,
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        return use(mode, authorization, "balance", null, Optional.empty());
    }

    @PostMapping("/deposit")
    public Map<String, Object> deposit(
            @PathVariable("mode") String mode,
            @RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @RequestHeader(value = IdempotencyKey.HEADER, required = false) String idempotencyKey,
            @RequestBody DepositRequest request) {
        return use(mode, authorization, "deposit", request.amount(), IdempotencyKey.parse(idempotencyKey));
    }

    private Map<String, Object> use(
            String mode, String authorization, String operation, Long amount, Optional<IdempotencyKey> idempotencyKey) {
        SubjectFlow flow = flow(mode);
        String accessToken = bearer(authorization);
        VerifiedOAuthToken verified = oauth.verify(flow.mode(), accessToken);
        UserKey user = new UserKey(verified.issuer(), verified.subject());
        boolean minted = false;
        KeptDocument document = sessions.live(user, flow.mode()).orElse(null);
        if (document == null) {
            document = flow.mint(accessToken, verified).document();
            sessions.keep(user, flow.mode(), document);
            minted = true;
        }
        AccountResponse account;
        try {
            account = flow.use(document, operation, amount, idempotencyKey);
        } catch (AssertionException e) {
            if (minted || !recordGone(e)) {
                throw e;
            }
            // the kept document's record is gone at the asserting workload (a restart, its store's bound,
            // a key it no longer knows): one new document, once; the refusal came before anything was applied
            log.info("{} document of {} no longer known downstream ({}): minted again", flow.mode(), user, e.code());
            document = flow.mint(accessToken, verified).document();
            sessions.keep(user, flow.mode(), document);
            minted = true;
            account = flow.use(document, operation, amount, idempotencyKey);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("user", account.user());
        body.put("balance", account.balance());
        body.put("mode", account.mode());
        body.put("path", account.path());
        body.put("minted", minted);
        return body;
    }

    /**
     * Whether a refusal of a kept document says its record is gone, not that it is bad: {@code
     * NOT_FOUND} (no introspection record) or {@code UNTRUSTED_KEY} (a root or key the asserting
     * workload no longer knows). The document came from the asserting workload itself, so minting
     * again is safe.
     */
    private static boolean recordGone(AssertionException e) {
        return e.code() == ErrorCode.NOT_FOUND || e.code() == ErrorCode.UNTRUSTED_KEY;
    }

    private SubjectFlow flow(String name) {
        Mode mode;
        try {
            mode = Mode.fromPathSegment(name);
        } catch (AssertionException e) {
            throw new UnknownModeException();
        }
        return flows.get(mode);
    }

    private static String bearer(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new MissingBearerException();
        }
        String token = authorization.substring(7).trim();
        if (token.isEmpty()) {
            throw new MissingBearerException();
        }
        return token;
    }
}
