package io.spiffeidt.support.identity;

import io.spiffeidt.core.SpiffeId;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.validation.annotation.Validated;

/**
 * Who this workload and its peers are, and where the peers are ({@code spiffeidt.trust-domain},
 * {@code spiffeidt.workload}, {@code spiffeidt.ids.*}, {@code spiffeidt.endpoints.*}, {@code
 * spiffeidt.workload-api.*}). Defaults are written once, in the {@link DefaultValue} annotations.
 *
 * <p>Thread safety: immutable.
 *
 * @param trustDomain the SPIFFE trust domain
 * @param workload which workload this process is, e.g. {@code asserting-wl}; unset: no SPIFFE ID of its
 *     own is known and the workload fails where it needs one (every workload sets it)
 * @param ids the SPIFFE ID of each workload, keyed by workload name ({@code spiffeidt.ids.m-tier}, in
 *     an environment variable {@code SPIFFEIDT_IDS_MTIER}); unset for a workload: {@code
 *     spiffe://<trust-domain>/<workload-name>}
 * @param endpoints base URL of each downstream workload, e.g. {@code https://127.0.0.1:8443}, keyed by
 *     workload name ({@code spiffeidt.endpoints.m-tier}, in an environment variable {@code
 *     SPIFFEIDT_ENDPOINTS_MTIER}: an underscore there separates levels of the name, so {@code
 *     SPIFFEIDT_ENDPOINTS_M_TIER} fails the start, see {@link WorkloadKeyFailureAnalyzer}); unset for a workload: a call to it fails
 *     (a workload sets only its own downstreams)
 * @param workloadApi the SPIFFE Workload API
 */
@ConfigurationProperties("spiffeidt")
@Validated
public record IdentityProperties(
        @DefaultValue("example.org") @NotBlank String trustDomain,
        Role workload,
        Map<Role, String> ids,
        Map<Role, URI> endpoints,
        @DefaultValue @Valid @NotNull WorkloadApi workloadApi) {

    /** Fills the default IDs and copies the maps. */
    public IdentityProperties {
        Map<Role, String> allIds = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            String id = ids == null ? null : ids.get(role);
            allIds.put(role, id != null && !id.isBlank() ? id : "spiffe://" + trustDomain + "/" + role.workloadName());
        }
        ids = Map.copyOf(allIds);
        endpoints = endpoints == null ? Map.of() : Map.copyOf(endpoints);
    }

    /** The defaults with the given trust domain and workload (for tests and tools). */
    public static IdentityProperties defaults(String trustDomain, Role workload) {
        return new Binder(new MapConfigurationPropertySource(
                        Map.of("spiffeidt.trust-domain", trustDomain, "spiffeidt.workload", workload.workloadName())))
                .bindOrCreate("spiffeidt", IdentityProperties.class);
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
     * @param socket the socket address, e.g. {@code unix:/tmp/agent.sock}; unset: the environment
     *     variable {@code SPIFFE_ENDPOINT_SOCKET}
     * @param initTimeout how long to wait for the first SVID
     */
    public record WorkloadApi(String socket, @DefaultValue("15s") @NotNull Duration initTimeout) {
        /** Reads the socket from the environment when not configured. */
        public WorkloadApi {
            if (socket == null || socket.isBlank()) {
                socket = System.getenv("SPIFFE_ENDPOINT_SOCKET");
            }
        }
    }
}
