package io.spiffeidt.subject.page;

import io.spiffeidt.core.Limits;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.decode.DocumentDecoder;
import io.spiffeidt.subject.api.DepositRequest;
import io.spiffeidt.subject.api.SubjectApiController;
import io.spiffeidt.support.tracing.TracingProperties;
import io.spiffeidt.support.wire.IdempotencyKey;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.authentication.OAuth2AuthenticationToken;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The page's JSON endpoints: who is logged in ({@code GET /page/session}), and {@code POST
 * /page/api/{mode}/mint|balance|deposit}, which run the JSON API's operations with the access token
 * of the page's login. The mint answer adds the document decoded by assertion-core's {@link
 * DocumentDecoder}; every answer carries the {@code Server-Timing} header of the whole call tree, and
 * the {@code traceresponse} header of its trace, which the page links to {@code
 * spiffeidt.tracing.ui-url} ({@code traceUi} of the session answer) when set.
 */
@RestController
@RequestMapping("/page")
public class PageController {

    /** The problem code of a page call whose login is gone or whose access token expired. */
    static final String SESSION_EXPIRED = "SESSION_EXPIRED";

    private final SubjectApiController api;
    private final ClientRegistrationRepository registrations;
    private final OAuth2AuthorizedClientRepository authorizedClients;
    private final Limits limits;
    private final Clock clock;
    private final TracingProperties tracing;

    public PageController(
            SubjectApiController api,
            ClientRegistrationRepository registrations,
            OAuth2AuthorizedClientRepository authorizedClients,
            Limits limits,
            Clock clock,
            TracingProperties tracing) {
        this.tracing = tracing;
        this.api = api;
        this.registrations = registrations;
        this.authorizedClients = authorizedClients;
        this.limits = limits;
        this.clock = clock;
    }

    /** The login state, the ways to log in, and the CSRF token for the page's POSTs. */
    @GetMapping("/session")
    public Map<String, Object> session(Authentication authentication, CsrfToken csrf, HttpServletRequest request) {
        Map<String, Object> body = new LinkedHashMap<>();
        OAuth2AccessToken token =
                authentication instanceof OAuth2AuthenticationToken oauth ? accessToken(oauth, request) : null;
        body.put("authenticated", token != null);
        if (token != null) {
            body.put("user", authentication.getName());
        }
        body.put("logins", logins());
        if (tracing.uiUrl() != null) {
            body.put("traceUi", tracing.uiUrl());
        }
        body.put(
                "csrf",
                Map.of("header", csrf.getHeaderName(), "parameter", csrf.getParameterName(), "token", csrf.getToken()));
        return body;
    }

    @PostMapping("/api/{mode}/mint")
    public Map<String, Object> mint(
            @PathVariable("mode") String mode, OAuth2AuthenticationToken authentication, HttpServletRequest request) {
        Map<String, Object> body = new LinkedHashMap<>(api.mint(mode, bearer(authentication, request)));
        Mode known = Mode.fromPathSegment(mode);
        if (known.hasDocument()) {
            body.remove("claims");
            body.put("document", DocumentDecoder.decode(known, (String) body.get("token"), limits));
        }
        return body;
    }

    @PostMapping("/api/{mode}/balance")
    public Map<String, Object> balance(
            @PathVariable("mode") String mode, OAuth2AuthenticationToken authentication, HttpServletRequest request) {
        return api.balance(mode, bearer(authentication, request));
    }

    @PostMapping("/api/{mode}/deposit")
    public Map<String, Object> deposit(
            @PathVariable("mode") String mode,
            OAuth2AuthenticationToken authentication,
            HttpServletRequest request,
            @RequestHeader(value = IdempotencyKey.HEADER, required = false) String idempotencyKey,
            @RequestBody DepositRequest deposit) {
        return api.deposit(mode, bearer(authentication, request), idempotencyKey, deposit);
    }

    /** The login ended (or its access token expired): the session goes, the page shows the login. */
    @ExceptionHandler(SessionExpiredException.class)
    void sessionExpired(HttpServletRequest request, HttpServletResponse response) throws IOException {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        PageSecurityConfiguration.writeSessionExpired(response);
    }

    private String bearer(OAuth2AuthenticationToken authentication, HttpServletRequest request) {
        OAuth2AccessToken token = authentication == null ? null : accessToken(authentication, request);
        if (token == null) {
            throw new SessionExpiredException();
        }
        return "Bearer " + token.getTokenValue();
    }

    /** The login's access token, unless missing or expired. */
    private OAuth2AccessToken accessToken(OAuth2AuthenticationToken authentication, HttpServletRequest request) {
        OAuth2AuthorizedClient client = authorizedClients.loadAuthorizedClient(
                authentication.getAuthorizedClientRegistrationId(), authentication, request);
        if (client == null) {
            return null;
        }
        OAuth2AccessToken token = client.getAccessToken();
        if (token.getExpiresAt() != null && !clock.instant().isBefore(token.getExpiresAt())) {
            return null;
        }
        return token;
    }

    /** The ways to log in; none while the provider's metadata cannot be fetched (tried again next time). */
    private List<Map<String, String>> logins() {
        List<Map<String, String>> out = new ArrayList<>();
        if (registrations instanceof Iterable<?> all) {
            Iterable<?> resolved;
            try {
                all.iterator();
                resolved = all;
            } catch (RuntimeException e) {
                return out;
            }
            for (Object o : resolved) {
                if (o instanceof ClientRegistration r) {
                    out.add(Map.of(
                            "id",
                            r.getRegistrationId(),
                            "name",
                            r.getClientName() == null ? r.getRegistrationId() : r.getClientName(),
                            "url",
                            "/oauth2/authorization/" + r.getRegistrationId()));
                }
            }
        }
        return out;
    }

    /** A page call without a usable login. */
    static final class SessionExpiredException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SessionExpiredException() {
            super("no live login");
        }
    }
}
