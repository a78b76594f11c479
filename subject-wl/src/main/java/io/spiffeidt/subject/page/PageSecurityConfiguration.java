package io.spiffeidt.subject.page;

import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientProperties;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientPropertiesMapper;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.client.oidc.web.logout.OidcClientInitiatedLogoutSuccessHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.HttpSessionOAuth2AuthorizedClientRepository;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizedClientRepository;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.firewall.HttpStatusRequestRejectedHandler;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;

/**
 * Two security filter chains. The JSON API ({@code /api/**}) keeps authenticating every request by
 * its {@code Authorization: Bearer} access token in the controller, with no session and no cookie.
 * The page ({@code /}, {@code /page/**}) logs the user in with OpenID Connect (authorization code
 * with PKCE; the client and its issuer are Spring Security's {@code
 * spring.security.oauth2.client.*} properties, so any OpenID provider works by configuration), keeps
 * the access token in the HTTP session, and logs out at the provider too where it offers RP-initiated
 * logout. The actuator (a separate management port) is left to neither chain.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSecurity
@EnableConfigurationProperties(OAuth2ClientProperties.class)
public class PageSecurityConfiguration {

    /** Where the page's own JSON endpoints live. */
    static final String PAGE_API = "/page/api/**";

    @Bean
    @Order(1)
    SecurityFilterChain apiSecurityFilterChain(HttpSecurity http) throws Exception {
        http.securityMatcher(PathPatternRequestMatcher.withDefaults().matcher("/api/**"));
        // SubjectApiController verifies the bearer token of every request itself
        http.authorizeHttpRequests(authorize -> authorize.anyRequest().permitAll());
        // no cookie authenticates an API request, so there is nothing to forge
        http.csrf(csrf -> csrf.disable());
        http.sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        http.requestCache(cache -> cache.disable());
        return http.build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain pageSecurityFilterChain(HttpSecurity http, ClientRegistrationRepository registrations)
            throws Exception {
        http.securityMatcher(new NegatedRequestMatcher(
                PathPatternRequestMatcher.withDefaults().matcher("/actuator/**")));
        http.authorizeHttpRequests(authorize -> authorize
                .requestMatchers(PathPatternRequestMatcher.withDefaults().matcher(PAGE_API))
                .authenticated()
                .anyRequest()
                .permitAll());
        http.oauth2Login(login -> login.loginPage("/").failureUrl("/?login-error"));
        OidcClientInitiatedLogoutSuccessHandler logout = new OidcClientInitiatedLogoutSuccessHandler(registrations);
        logout.setPostLogoutRedirectUri("{baseUrl}/?logout");
        logout.setDefaultTargetUrl("/?logout");
        http.logout(l -> l.logoutSuccessHandler(logout));
        // the page reads the token from /page/session and sends it back as a header or form field
        http.csrf(csrf -> csrf.csrfTokenRepository(CookieCsrfTokenRepository.withHttpOnlyFalse())
                .csrfTokenRequestHandler(new CsrfTokenRequestAttributeHandler()));
        http.exceptionHandling(exceptions -> exceptions.defaultAuthenticationEntryPointFor(
                sessionExpired(), PathPatternRequestMatcher.withDefaults().matcher(PAGE_API)));
        return http.build();
    }

    /** The stock firewall, its header checks without a regular expression ({@link HeaderFirewall}). */
    @Bean
    WebSecurityCustomizer headerFirewall() {
        return web -> web.httpFirewall(HeaderFirewall.strict());
    }

    /**
     * A request the firewall refuses while the security filters run (a path it does not accept): 400
     * through {@code /error}, a problem with the code {@code MALFORMED}; the default handler throws
     * and the container logs the exception, whose message quotes what was refused.
     */
    @Bean
    RequestRejectedHandler requestRejectedHandler() {
        return new HttpStatusRequestRejectedHandler(HttpServletResponse.SC_BAD_REQUEST);
    }

    /** The clients of {@code spring.security.oauth2.client.*}, resolved when the page first needs them. */
    @Bean
    ClientRegistrationRepository clientRegistrationRepository(OAuth2ClientProperties properties) {
        return new LazyClientRegistrationRepository(
                () -> new OAuth2ClientPropertiesMapper(properties).asClientRegistrations());
    }

    /** The access token lives and dies with the page's HTTP session. */
    @Bean
    OAuth2AuthorizedClientRepository authorizedClientRepository() {
        return new HttpSessionOAuth2AuthorizedClientRepository();
    }

    /** A page call without a live login: 401 with a problem detail the page turns into words. */
    private static AuthenticationEntryPoint sessionExpired() {
        return (request, response, e) -> writeSessionExpired(response);
    }

    static void writeSessionExpired(HttpServletResponse response) throws java.io.IOException {
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write("{\"type\":\"about:blank\",\"title\":\"Session expired\",\"status\":401,"
                        + "\"detail\":\"you are not logged in (any more)\",\"code\":\"" + PageController.SESSION_EXPIRED
                        + "\"}");
    }
}
