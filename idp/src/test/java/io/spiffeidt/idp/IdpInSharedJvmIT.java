package io.spiffeidt.idp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.proc.BadJOSEException;
import io.spiffeidt.idp.config.IdpIssuer;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;

/**
 * Starts the IdP the way the devstack launcher does ({@link IdpApplication#builder()}, port 0),
 * twice in one JVM: each instance reads {@code idp.yml}, has its own issuer and its own key.
 */
class IdpInSharedJvmIT {

    @Test
    void verifyWhenTwoIdpsStartedByTheBuilderInOneJvmThenEachReadsIdpYmlAndHasItsOwnIssuerAndKey() throws Exception {
        try (ConfigurableApplicationContext first = IdpApplication.builder().run("--server.port=0");
                ConfigurableApplicationContext second = IdpApplication.builder().run("--server.port=0")) {
            // the builder selects idp.yml (spring.config.name=idp)
            assertThat(first.getEnvironment().getProperty("spring.application.name"))
                    .isEqualTo("idp");
            assertThat(first.getEnvironment().getPropertySources().stream().map(PropertySource::getName))
                    .anyMatch(name -> name.contains("idp.yml"));
            URI firstIssuer = issuerOf(first);
            URI secondIssuer = issuerOf(second);
            assertThat(firstIssuer).isNotEqualTo(secondIssuer);

            IdpTestClient firstClient = new IdpTestClient(firstIssuer);
            IdpTestClient secondClient = new IdpTestClient(secondIssuer);
            assertThat(firstClient.discovery()).containsEntry("issuer", firstIssuer.toString());
            assertThat(secondClient.discovery()).containsEntry("issuer", secondIssuer.toString());

            Map<String, Object> tokens = IdpTestClient.json(firstClient.devToken("user0005", "password"));
            String accessToken = (String) tokens.get("access_token");
            assertThat(firstClient.verify(accessToken).getSubject()).isEqualTo("user0005");
            assertThatThrownBy(() -> secondClient.verify(accessToken)).isInstanceOf(BadJOSEException.class);
        }
    }

    private static URI issuerOf(ConfigurableApplicationContext context) {
        URI issuer = context.getBean(IdpIssuer.class).uri();
        String port = context.getEnvironment().getProperty("local.server.port");
        assertThat(issuer).isEqualTo(URI.create("http://127.0.0.1:" + port));
        return issuer;
    }
}
