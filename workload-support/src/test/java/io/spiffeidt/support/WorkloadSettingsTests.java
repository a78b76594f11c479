package io.spiffeidt.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.SpiffeId;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.support.client.ConnectionStrategy;
import io.spiffeidt.support.client.PoolingProfile;
import io.spiffeidt.support.client.PoolingProperties;
import io.spiffeidt.support.crypto.CryptoProperties;
import io.spiffeidt.support.crypto.CryptoProviderChoice;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.Role;
import io.spiffeidt.support.oauth.JwksCacheMode;
import io.spiffeidt.support.oauth.OAuthProperties;
import io.spiffeidt.support.server.WorkloadServerProperties;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Each concern's settings record binds its keys and writes its defaults once. */
class WorkloadSettingsTests {

    /** Every record of workload-support bound from one set of values, as in a workload. */
    private record Bound(
            IdentityProperties identity,
            WorkloadServerProperties server,
            PoolingProperties pooling,
            CryptoProperties crypto,
            OAuthProperties oauth,
            VerificationProperties verification) {
        SpiffeId idOf(Role role) {
            return identity.idOf(role);
        }

        URI endpointOf(Role role) {
            return identity.endpointOf(role);
        }

        SpiffeId self() {
            return identity.self();
        }

        String trustDomain() {
            return identity.trustDomain();
        }

        Role workload() {
            return identity.workload();
        }

        Map<Role, URI> endpoints() {
            return identity.endpoints();
        }

        IdentityProperties.WorkloadApi workloadApi() {
            return identity.workloadApi();
        }
    }

    private static Bound bind(Map<String, String> values) {
        Binder binder = new Binder(new MapConfigurationPropertySource(values));
        return new Bound(
                binder.bindOrCreate("spiffeidt", IdentityProperties.class),
                binder.bindOrCreate("spiffeidt.server", WorkloadServerProperties.class),
                binder.bindOrCreate("spiffeidt.pooling", PoolingProperties.class),
                binder.bindOrCreate("spiffeidt.crypto", CryptoProperties.class),
                binder.bindOrCreate("spiffeidt.oauth", OAuthProperties.class),
                binder.bindOrCreate("spiffeidt.verification", VerificationProperties.class));
    }

    @Test
    void verifyWhenNothingConfiguredThenDefaults() {
        Bound p = bind(Map.of());

        assertThat(p.trustDomain()).isEqualTo("example.org");
        assertThat(p.workload()).isNull();
        assertThat(p.idOf(Role.ASSERTING_WL)).isEqualTo(new SpiffeId("example.org", "/asserting-wl"));
        assertThat(p.idOf(Role.SUBJECT_WL).toString()).isEqualTo("spiffe://example.org/subject-wl");
        assertThat(p.endpoints()).isEmpty();
        assertThat(p.workloadApi().initTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(p.server().mtls()).isTrue();
        assertThat(p.pooling().profile()).isEqualTo(PoolingProfile.THESIS);
        assertThat(p.pooling().overrides()).isEmpty();
        assertThat(p.pooling().connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.pooling().responseTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.pooling().maxConnections()).isEqualTo(64);
        assertThat(p.crypto().provider()).isEqualTo(CryptoProviderChoice.AUTO);
        assertThat(p.oauth().issuers()).isEmpty();
        assertThat(p.oauth().jwksCache()).isEqualTo(JwksCacheMode.REFRESH_AHEAD);
        assertThat(p.oauth().jwksRefetchInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.oauth().cacheTtl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(p.oauth().refreshAhead()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.oauth().jwksConnectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(p.oauth().jwksReadTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.verification().profile()).isEqualTo(VerificationProfile.STRICT);
        assertThat(p.verification().skew()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.verification().lifetime()).isEqualTo(Duration.ofSeconds(120));
        assertThat(p.verification().originalMaxAge()).isEqualTo(Duration.ofSeconds(300));
        assertThatThrownBy(p::self).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void verifyWhenYamlStyleValuesThenBoundLeniently() {
        Bound p = bind(Map.ofEntries(
                Map.entry("spiffeidt.trust-domain", "corp.test"),
                Map.entry("spiffeidt.workload", "asserting-wl"),
                Map.entry("spiffeidt.ids.m-tier", "spiffe://corp.test/ns/prod/sa/m-tier"),
                Map.entry("spiffeidt.endpoints.target-wl", "https://127.0.0.1:8443"),
                Map.entry("spiffeidt.workload-api.socket", "unix:/tmp/agent.sock"),
                Map.entry("spiffeidt.workload-api.init-timeout", "3s"),
                Map.entry("spiffeidt.server.mtls", "false"),
                Map.entry("spiffeidt.pooling.profile", "fresh-source"),
                Map.entry("spiffeidt.pooling.overrides.dvid.asserting-wl", "non-pooled"),
                Map.entry("spiffeidt.pooling.overrides[id-mode.target-wl]", "pooled"),
                Map.entry("spiffeidt.pooling.max-connections", "7"),
                Map.entry("spiffeidt.crypto.provider", "bc"),
                Map.entry("spiffeidt.oauth.issuers[0].issuer", "http://127.0.0.1:9000"),
                Map.entry("spiffeidt.oauth.issuers[1].issuer", "https://accounts.example.com"),
                Map.entry("spiffeidt.oauth.issuers[0].audience", "spiffeidt"),
                Map.entry("spiffeidt.oauth.issuers[1].jwks-uri", "https://accounts.example.com/jwks"),
                Map.entry("spiffeidt.oauth.issuers[1].audience", "api://spiffeidt"),
                Map.entry("spiffeidt.oauth.issuers[1].rfc9068", "false"),
                Map.entry("spiffeidt.oauth.jwks-cache", "none"),
                Map.entry("spiffeidt.oauth.jwks-connect-timeout", "750ms"),
                Map.entry("spiffeidt.oauth.jwks-read-timeout", "4s"),
                Map.entry("spiffeidt.pooling.connect-timeout", "9s"),
                Map.entry("spiffeidt.verification.profile", "original-compatible"),
                Map.entry("spiffeidt.verification.skew", "5s")));

        assertThat(p.trustDomain()).isEqualTo("corp.test");
        assertThat(p.workload()).isEqualTo(Role.ASSERTING_WL);
        assertThat(p.self().toString()).isEqualTo("spiffe://corp.test/asserting-wl");
        assertThat(p.idOf(Role.M_TIER).path()).isEqualTo("/ns/prod/sa/m-tier");
        assertThat(p.endpointOf(Role.TARGET_WL)).isEqualTo(URI.create("https://127.0.0.1:8443"));
        assertThat(p.workloadApi().socket()).isEqualTo("unix:/tmp/agent.sock");
        assertThat(p.workloadApi().initTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.server().mtls()).isFalse();
        assertThat(p.pooling().profile()).isEqualTo(PoolingProfile.FRESH_SOURCE);
        assertThat(p.pooling().overrides())
                .containsEntry("dvid.asserting-wl", ConnectionStrategy.NON_POOLED)
                .containsEntry("id-mode.target-wl", ConnectionStrategy.POOLED);
        assertThat(p.pooling().maxConnections()).isEqualTo(7);
        assertThat(p.crypto().provider()).isEqualTo(CryptoProviderChoice.BC);
        assertThat(p.oauth().issuers())
                .containsExactly(
                        new OAuthProperties.Issuer("http://127.0.0.1:9000", null, "spiffeidt", true),
                        new OAuthProperties.Issuer(
                                "https://accounts.example.com",
                                URI.create("https://accounts.example.com/jwks"),
                                "api://spiffeidt",
                                false));
        assertThat(p.oauth().jwksCache()).isEqualTo(JwksCacheMode.NONE);
        assertThat(p.oauth().jwksConnectTimeout()).isEqualTo(Duration.ofMillis(750));
        assertThat(p.oauth().jwksReadTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(p.pooling().connectTimeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(p.verification().profile()).isEqualTo(VerificationProfile.ORIGINAL_COMPATIBLE);
        assertThat(p.verification().skew()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void verifyWhenConfiguredIdIsNotSpiffeIdThenMalformed() {
        Bound p = bind(Map.of("spiffeidt.ids.target-wl", "https://example.org/target"));

        assertThatThrownBy(() -> p.idOf(Role.TARGET_WL)).isInstanceOf(AssertionException.class);
    }

    @Test
    void verifyWhenEndpointMissingThenNamedInError() {
        Bound p = bind(Map.of());

        assertThatThrownBy(() -> p.endpointOf(Role.M_TIER))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("spiffeidt.endpoints.m-tier");
    }
}
