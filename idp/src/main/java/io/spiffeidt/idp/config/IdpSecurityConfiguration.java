package io.spiffeidt.idp.config;

import static org.springframework.security.config.Customizer.withDefaults;

import io.spiffeidt.idp.config.IdpProperties.Client;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.client.InMemoryRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.security.oauth2.server.authorization.settings.OAuth2TokenFormat;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.firewall.HttpStatusRequestRejectedHandler;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;

/**
 * The two security filter chains (authorization-server endpoints; everything else with form login
 * and the open {@code /dev/token}), the registered clients, the test users and the issuer
 * settings.
 */
@Configuration(proxyBeanMethods = false)
class IdpSecurityConfiguration {

    /** The path of the direct token endpoint for scripts and load tests. */
    static final String DEV_TOKEN_PATH = "/dev/token";

    private static final Pattern ENCODING_ID = Pattern.compile("^\\{[A-Za-z0-9_-]+}.*", Pattern.DOTALL);

    @Bean
    @Order(1)
    SecurityFilterChain authorizationServerSecurityFilterChain(HttpSecurity http, IdpIssuer issuer) {
        http.oauth2AuthorizationServer(authorizationServer -> {
            http.securityMatcher(authorizationServer.getEndpointsMatcher());
            authorizationServer.oidc(withDefaults());
        });
        http.authorizeHttpRequests(authorize -> authorize.anyRequest().authenticated());
        // the OIDC UserInfo endpoint takes the access token as a bearer token
        http.oauth2ResourceServer(resourceServer -> resourceServer.jwt(withDefaults()));
        http.exceptionHandling(exceptions ->
                exceptions.defaultAuthenticationEntryPointFor(new LoginUrlAuthenticationEntryPoint("/login"), html()));
        if (!issuer.isConfigured()) {
            http.addFilterBefore(new LocalIssuerFilter(issuer), SecurityContextHolderFilter.class);
        }
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain defaultSecurityFilterChain(HttpSecurity http) {
        http.authorizeHttpRequests(authorize -> authorize
                .requestMatchers(DEV_TOKEN_PATH, "/error")
                .permitAll()
                .anyRequest()
                .authenticated());
        // /dev/token authenticates by its form fields, never by a cookie: CSRF does not apply
        http.csrf(csrf -> csrf.ignoringRequestMatchers(DEV_TOKEN_PATH));
        http.formLogin(withDefaults());
        return http.build();
    }

    /**
     * A request the firewall refuses in the security filters: 400 through {@code /error}, instead of
     * an exception the container logs with what was refused.
     */
    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return new HttpStatusRequestRejectedHandler(400);
    }

    /** Form login and {@code /dev/token} authenticate against the test users. */
    @Bean
    AuthenticationManager authenticationManager(IdpProperties properties) {
        String password = properties.password();
        String encoded = ENCODING_ID.matcher(password).matches() ? password : "{noop}" + password;
        DaoAuthenticationProvider provider = new DaoAuthenticationProvider(new TestUsers(properties.users(), encoded));
        provider.setPasswordEncoder(PasswordEncoderFactories.createDelegatingPasswordEncoder());
        return new ProviderManager(provider);
    }

    @Bean
    AuthorizationServerSettings authorizationServerSettings(IdpIssuer issuer) {
        AuthorizationServerSettings.Builder settings = AuthorizationServerSettings.builder();
        if (issuer.isConfigured()) {
            settings.issuer(issuer.uri().toString());
        }
        return settings.build();
    }

    @Bean
    RegisteredClientRepository registeredClientRepository(IdpProperties properties) {
        List<RegisteredClient> clients = properties.clients().entrySet().stream()
                .map(entry -> registeredClient(entry.getKey(), entry.getValue(), properties))
                .toList();
        return new InMemoryRegisteredClientRepository(clients);
    }

    private static RegisteredClient registeredClient(String clientId, Client client, IdpProperties properties) {
        return RegisteredClient.withId(clientId)
                .clientId(clientId)
                .clientAuthenticationMethod(ClientAuthenticationMethod.NONE)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .redirectUris(uris -> uris.addAll(strings(client.redirectUris())))
                .postLogoutRedirectUris(uris -> uris.addAll(strings(client.postLogoutRedirectUris())))
                .scopes(scopes -> scopes.addAll(client.scopes()))
                .clientSettings(ClientSettings.builder()
                        .requireProofKey(true)
                        .requireAuthorizationConsent(false)
                        .build())
                .tokenSettings(TokenSettings.builder()
                        .accessTokenFormat(OAuth2TokenFormat.SELF_CONTAINED)
                        .accessTokenTimeToLive(properties.accessTokenTtl())
                        .build())
                .build();
    }

    private static Set<String> strings(List<URI> uris) {
        return uris.stream().map(URI::toString).collect(Collectors.toSet());
    }

    private static MediaTypeRequestMatcher html() {
        MediaTypeRequestMatcher matcher = new MediaTypeRequestMatcher(MediaType.TEXT_HTML);
        matcher.setIgnoredMediaTypes(Set.of(MediaType.ALL));
        return matcher;
    }
}
