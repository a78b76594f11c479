package io.spiffeidt.support;

import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.support.client.ConnectionStrategy;
import io.spiffeidt.support.client.PoolingProfile;
import io.spiffeidt.support.client.PoolingTable;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.JwksCacheMode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Everything a workload is configured with, under the prefix {@code spiffeidt}. Defaults live here
 * (there is no {@code application.yml}: each workload reads {@code <workload-name>.yml}).
 *
 * <p>Thread safety: immutable.
 *
 * @param trustDomain the SPIFFE trust domain (default {@code example.org})
 * @param workload which workload this process is ({@code spiffeidt.workload: asserting-wl})
 * @param ids the SPIFFE ID of each role, keyed by workload name ({@code spiffeidt.ids.m-tier}, in an
 *     environment variable {@code SPIFFEIDT_IDS_MTIER}); missing roles default to {@code
 *     spiffe://<trustDomain>/<workloadName>}
 * @param endpoints base URLs of the downstream workloads, e.g. {@code https://127.0.0.1:8443}, keyed
 *     by workload name ({@code spiffeidt.endpoints.m-tier}, in an environment variable {@code
 *     SPIFFEIDT_ENDPOINTS_MTIER}: an underscore there separates levels of the name, so {@code
 *     SPIFFEIDT_ENDPOINTS_M_TIER} fails the start, see {@link WorkloadKeyFailureAnalyzer})
 * @param workloadApi the SPIFFE Workload API socket
 * @param server the inbound server
 * @param pooling outbound connection strategies and HTTP client limits
 * @param crypto the JCA provider choice
 * @param oauth the OAuth token issuers and JWKS caching
 * @param verification the document verification profile and time rules
 */
@ConfigurationProperties("spiffeidt")
@Validated
public record SpiffeIdtProperties(
        @DefaultValue("example.org") @NotBlank String trustDomain,
        Role workload,
        Map<Role, String> ids,
        Map<Role, URI> endpoints,
        @DefaultValue @Valid @NotNull WorkloadApi workloadApi,
        @DefaultValue @Valid @NotNull Server server,
        @DefaultValue @Valid @NotNull Pooling pooling,
        @DefaultValue @Valid @NotNull Crypto crypto,
        @DefaultValue @Valid @NotNull OAuth oauth,
        @DefaultValue @Valid @NotNull Verification verification) {

    /** Fills the default IDs and copies the maps. */
    public SpiffeIdtProperties {
        Map<Role, String> allIds = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            String id = ids == null ? null : ids.get(role);
            allIds.put(role, id != null && !id.isBlank() ? id : "spiffe://" + trustDomain + "/" + role.workloadName());
        }
        ids = Map.copyOf(allIds);
        endpoints = endpoints == null ? Map.of() : Map.copyOf(endpoints);
        workloadApi = workloadApi == null ? new WorkloadApi(null, null) : workloadApi;
        server = server == null ? new Server(true) : server;
        pooling = pooling == null ? new Pooling(null, null, null, null, 64, null) : pooling;
        crypto = crypto == null ? new Crypto(null) : crypto;
        oauth = oauth == null ? new OAuth(null, null, null, null, null) : oauth;
        verification = verification == null ? new Verification(null, null, null, null, null) : verification;
    }

    /** The defaults with the given trust domain and workload (for tests and tools). */
    public static SpiffeIdtProperties defaults(String trustDomain, Role workload) {
        return new SpiffeIdtProperties(trustDomain, workload, null, null, null, null, null, null, null, null);
    }

    /**
     * The configured SPIFFE ID of a role, parsed.
     *
     * @throws io.spiffeidt.core.AssertionException MALFORMED when the configured value is not a SPIFFE ID
     */
    public SpiffeId idOf(Role role) {
        return SpiffeId.parse(ids.get(role));
    }

    /**
     * This workload's configured SPIFFE ID.
     *
     * @throws IllegalStateException when {@code spiffeidt.workload} is not set
     */
    public SpiffeId self() {
        if (workload == null) {
            throw new IllegalStateException("spiffeidt.workload is not set");
        }
        return idOf(workload);
    }

    /**
     * The configured base URL of a downstream workload.
     *
     * @throws IllegalStateException when {@code spiffeidt.endpoints.<role>} is not set
     */
    public URI endpointOf(Role role) {
        URI uri = endpoints.get(role);
        if (uri == null) {
            throw new IllegalStateException("spiffeidt.endpoints." + role.workloadName() + " is not set");
        }
        return uri;
    }

    /**
     * The SPIFFE Workload API.
     *
     * @param socket the socket address, e.g. {@code unix:/tmp/agent.sock}; default: the environment
     *     variable {@code SPIFFE_ENDPOINT_SOCKET}
     * @param initTimeout how long to wait for the first SVID (default 15 s)
     */
    public record WorkloadApi(String socket, @DefaultValue("15s") Duration initTimeout) {
        /** Applies the defaults. */
        public WorkloadApi {
            if (socket == null || socket.isBlank()) {
                socket = System.getenv("SPIFFE_ENDPOINT_SOCKET");
            }
            initTimeout = initTimeout == null ? Duration.ofSeconds(15) : initTimeout;
        }
    }

    /**
     * The inbound server.
     *
     * @param mtls whether the server port serves SPIFFE mTLS (default true; subject-wl's user port is
     *     plain HTTP)
     */
    public record Server(@DefaultValue("true") boolean mtls) {}

    /**
     * Outbound connection strategies (docs/design.md "Connections").
     *
     * @param profile sets every downstream at once (default {@link PoolingProfile#THESIS})
     * @param overrides per-downstream overrides keyed {@code <mode>.<downstream>}, e.g. {@code
     *     dvid.asserting-wl} (in an environment variable {@code
     *     SPIFFEIDT_POOLING_OVERRIDES_DVID_ASSERTINGWL}); keys are normalised to that spelling, and a key
     *     that names no mode and workload fails the start ({@link PoolingTable#canonicalOverrideKey})
     * @param connectTimeout TCP connect timeout (default 2 s)
     * @param responseTimeout response timeout (default 10 s)
     * @param maxConnections pool size per downstream (default 64)
     * @param validateAfterInactivity a pooled connection idle longer than this is checked before reuse
     *     (default 500 ms): the check is a read that waits 1 ms on a live connection, and finds one the
     *     downstream closed (a restart, its idle timeout) instead of failing the next request on it; keep
     *     it below the time a downstream takes to restart
     */
    public record Pooling(
            @DefaultValue("thesis") PoolingProfile profile,
            Map<String, ConnectionStrategy> overrides,
            @DefaultValue("2s") Duration connectTimeout,
            @DefaultValue("10s") Duration responseTimeout,
            @DefaultValue("64") @Positive int maxConnections,
            @DefaultValue("500ms") Duration validateAfterInactivity) {
        /** Applies the defaults. */
        public Pooling {
            profile = profile == null ? PoolingProfile.THESIS : profile;
            Map<String, ConnectionStrategy> canonical = new LinkedHashMap<>();
            if (overrides != null) {
                // the binder puts the highest-precedence source's entries first: they win
                overrides.forEach(
                        (key, strategy) -> canonical.putIfAbsent(PoolingTable.canonicalOverrideKey(key), strategy));
            }
            overrides = Map.copyOf(canonical);
            connectTimeout = connectTimeout == null ? Duration.ofSeconds(2) : connectTimeout;
            responseTimeout = responseTimeout == null ? Duration.ofSeconds(10) : responseTimeout;
            validateAfterInactivity =
                    validateAfterInactivity == null ? Duration.ofMillis(500) : validateAfterInactivity;
        }
    }

    /**
     * The JCA provider.
     *
     * @param provider which provider signs and verifies (default {@link CryptoProviderChoice#AUTO})
     */
    public record Crypto(@DefaultValue("auto") CryptoProviderChoice provider) {
        /** Applies the default. */
        public Crypto {
            provider = provider == null ? CryptoProviderChoice.AUTO : provider;
        }
    }

    /**
     * OAuth access token verification (docs/design.md "OAuth tokens").
     *
     * @param issuers the issuer allow-list, each with its audience
     * @param jwksCache JWKS caching (default {@link JwksCacheMode#REFRESH_AHEAD})
     * @param cacheTtl JWKS cache time to live (default 5 min): a rotated IdP key is picked up within
     *     it whatever the rate limit
     * @param refreshAhead refresh the JWKS this long before the cache expires (default 30 s)
     * @param jwksRefetchInterval at most one refetch of a JWKS for an unknown {@code kid} in this
     *     interval (default 30 s); tokens with an unknown {@code kid} beyond it are refused (401)
     *     without a fetch
     */
    public record OAuth(
            List<@Valid Issuer> issuers,
            @DefaultValue("refresh-ahead") JwksCacheMode jwksCache,
            @DefaultValue("5m") Duration cacheTtl,
            @DefaultValue("30s") Duration refreshAhead,
            @DefaultValue("30s") Duration jwksRefetchInterval) {
        /** Applies the defaults. */
        public OAuth {
            issuers = issuers == null ? List.of() : List.copyOf(issuers);
            jwksCache = jwksCache == null ? JwksCacheMode.REFRESH_AHEAD : jwksCache;
            cacheTtl = cacheTtl == null ? Duration.ofMinutes(5) : cacheTtl;
            refreshAhead = refreshAhead == null ? Duration.ofSeconds(30) : refreshAhead;
            jwksRefetchInterval = jwksRefetchInterval == null ? Duration.ofSeconds(30) : jwksRefetchInterval;
        }
    }

    /**
     * One allowed OAuth issuer.
     *
     * @param issuer the exact {@code iss} value
     * @param jwksUri the JWKS URI; when absent, OIDC discovery at {@code
     *     <issuer>/.well-known/openid-configuration}
     * @param audience the {@code aud} every access token of this issuer must carry for us (required:
     *     without it an ID token the issuer gave to any client would do; the dev IdP's is {@code
     *     spiffeidt})
     * @param rfc9068 the issuer types its JWT access tokens {@code at+jwt} (RFC 9068) and every token
     *     must say so (default true)
     */
    public record Issuer(
            @NotBlank String issuer, URI jwksUri, @NotBlank String audience, @DefaultValue("true") boolean rfc9068) {}

    /**
     * Document verification (docs/formats/common.md "Time", "Verification profiles").
     *
     * @param profile default {@link VerificationProfile#STRICT}
     * @param skew allowed clock skew (default 30 s)
     * @param lifetime lifetime of a minted document (default 120 s)
     * @param originalMaxAge lifetime assumed for an original document without {@code exp} (default
     *     300 s)
     * @param lsvidV1IssuerKeys PEM files ({@code PUBLIC KEY}, EC P-256) of the original SPIRE LSVID
     *     signing keys that version 1 LSVID base tokens must be signed with; used only under the
     *     original-compatible profile (default none: every version 1 document is rejected)
     */
    public record Verification(
            @DefaultValue("strict") VerificationProfile profile,
            @DefaultValue("30s") Duration skew,
            @DefaultValue("120s") Duration lifetime,
            @DefaultValue("300s") Duration originalMaxAge,
            List<Path> lsvidV1IssuerKeys) {
        /** Applies the defaults. */
        public Verification {
            profile = profile == null ? VerificationProfile.STRICT : profile;
            skew = skew == null ? Duration.ofSeconds(30) : skew;
            lifetime = lifetime == null ? Duration.ofSeconds(120) : lifetime;
            originalMaxAge = originalMaxAge == null ? Duration.ofSeconds(300) : originalMaxAge;
            lsvidV1IssuerKeys = lsvidV1IssuerKeys == null ? List.of() : List.copyOf(lsvidV1IssuerKeys);
        }
    }
}
