package io.spiffeidt.idp.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

class IdpPropertiesTests {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withUserConfiguration(PropertiesConfiguration.class);

    @Test
    void verifyWhenNothingSetThenTheDocumentedDefaults() {
        runner.run(context -> {
            IdpProperties properties = context.getBean(IdpProperties.class);
            assertThat(properties.users()).isEqualTo(100);
            assertThat(properties.password()).isEqualTo("password");
            assertThat(properties.issuer()).isNull();
            assertThat(properties.audience()).isEqualTo("spiffeidt");
            assertThat(properties.accessTokenTtl()).isEqualTo(Duration.ofSeconds(3600));
            assertThat(properties.signingKey()).isNull();
            assertThat(properties.devTokenClient()).isEqualTo("subject-wl");
            assertThat(properties.clients()).containsOnlyKeys("subject-wl");
            IdpProperties.Client client = properties.clients().get("subject-wl");
            assertThat(client.redirectUris())
                    .containsExactly(URI.create("http://127.0.0.1:8080/login/oauth2/code/idp"));
            assertThat(client.scopes()).containsExactlyInAnyOrder("openid", "profile");
            assertThat(client.postLogoutRedirectUris()).containsExactly(URI.create("http://127.0.0.1:8080/?logout"));
        });
    }

    @Test
    void verifyWhenEverythingSetThenBound() {
        runner.withPropertyValues(
                        "spiffeidt.idp.users=7",
                        "spiffeidt.idp.password=s3cret",
                        "spiffeidt.idp.issuer=https://idp.example:8443",
                        "spiffeidt.idp.audience=bank",
                        "spiffeidt.idp.access-token-ttl=2m",
                        "spiffeidt.idp.signing-key=/keys/idp.pem",
                        "spiffeidt.idp.dev-token-client=web",
                        "spiffeidt.idp.clients.web.redirect-uris=http://127.0.0.1:1/a,http://127.0.0.1:2/b",
                        "spiffeidt.idp.clients.web.scopes=openid",
                        "spiffeidt.idp.clients.web.post-logout-redirect-uris=http://127.0.0.1:1/")
                .run(context -> {
                    IdpProperties properties = context.getBean(IdpProperties.class);
                    assertThat(properties.users()).isEqualTo(7);
                    assertThat(properties.password()).isEqualTo("s3cret");
                    assertThat(properties.issuer()).isEqualTo(URI.create("https://idp.example:8443"));
                    assertThat(properties.audience()).isEqualTo("bank");
                    assertThat(properties.accessTokenTtl()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(properties.signingKey()).isEqualTo(Path.of("/keys/idp.pem"));
                    assertThat(properties.clients()).containsOnlyKeys("web");
                    IdpProperties.Client web = properties.clients().get("web");
                    assertThat(web.redirectUris())
                            .isEqualTo(List.of(URI.create("http://127.0.0.1:1/a"), URI.create("http://127.0.0.1:2/b")));
                    assertThat(web.scopes()).containsExactly("openid");
                    assertThat(web.postLogoutRedirectUris()).containsExactly(URI.create("http://127.0.0.1:1/"));
                });
    }

    @Test
    void verifyWhenOnlyRedirectUriOfAClientSetThenItsScopesDefault() {
        runner.withPropertyValues("spiffeidt.idp.clients.subject-wl.redirect-uris=http://127.0.0.1:8443/cb")
                .run(context -> {
                    IdpProperties.Client client =
                            context.getBean(IdpProperties.class).clients().get("subject-wl");
                    assertThat(client.redirectUris()).containsExactly(URI.create("http://127.0.0.1:8443/cb"));
                    assertThat(client.scopes()).containsExactlyInAnyOrder("openid", "profile");
                });
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "spiffeidt.idp.users=0                                 | field 'users'",
                "spiffeidt.idp.users=1000001                           | field 'users'",
                "spiffeidt.idp.password=                               | field 'password'",
                "spiffeidt.idp.audience=                               | field 'audience'",
                "spiffeidt.idp.access-token-ttl=0s                     | field 'accessTokenTtl'",
                "spiffeidt.idp.access-token-ttl=-5s                    | field 'accessTokenTtl'",
                "spiffeidt.idp.issuer=ftp://idp.example                | spiffeidt.idp.issuer must be",
                "spiffeidt.idp.issuer=http://idp.example/realms/dev    | spiffeidt.idp.issuer must be",
                "spiffeidt.idp.issuer=http://idp.example?x=1           | spiffeidt.idp.issuer must be",
                "spiffeidt.idp.issuer=http://user@idp.example          | spiffeidt.idp.issuer must be",
                "spiffeidt.idp.issuer=urn:idp                          | spiffeidt.idp.issuer must be",
                "spiffeidt.idp.dev-token-client=someone-else           | is not one of spiffeidt.idp.clients",
                "spiffeidt.idp.clients.web.scopes=                     | scopes",
            })
    void verifyWhenSettingInvalidThenContextFailsNamingIt(String setting, String expected) {
        runner.withPropertyValues(
                        "spiffeidt.idp.clients.web.redirect-uris=http://127.0.0.1:1/a",
                        "spiffeidt.idp.dev-token-client=web",
                        setting)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(messages(context.getStartupFailure())).contains(expected);
                });
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    @Test
    void verifyWhenValidSettingsAroundTheInvalidOnesThenContextStarts() {
        runner.withPropertyValues(
                        "spiffeidt.idp.clients.web.redirect-uris=http://127.0.0.1:1/a",
                        "spiffeidt.idp.dev-token-client=web",
                        "spiffeidt.idp.users=1000000",
                        "spiffeidt.idp.access-token-ttl=1s",
                        "spiffeidt.idp.issuer=http://idp:9000")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(IdpProperties.class)
    static class PropertiesConfiguration {}
}
