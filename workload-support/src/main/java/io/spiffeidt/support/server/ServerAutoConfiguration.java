package io.spiffeidt.support.server;

import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.support.identity.IdentityAutoConfiguration;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.identity.SvidPinFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The servlet server: request bodies bounded before they are buffered and (with {@code
 * spiffeidt.server.mtls=true}, the default) the SPIFFE mTLS Tomcat connector: TLS 1.3, client SVID
 * required, from this workload's X.509 source.
 */
@AutoConfiguration(after = IdentityAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties({AdmissionProperties.class, WorkloadServerProperties.class, IdentityProperties.class})
public class ServerAutoConfiguration {

    /** One SVID per request ({@link SvidPinFilter}): before the others, so every later step sees the pin. */
    @Bean
    public FilterRegistrationBean<SvidPinFilter> spiffeIdtSvidPinFilter() {
        FilterRegistrationBean<SvidPinFilter> registration = new FilterRegistrationBean<>(new SvidPinFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }

    /**
     * Refuses a header that the firewall would refuse ({@link RequestHeaderFilter}) before anything
     * reads one: first of all filters, so no later step quotes the value in an exception.
     */
    @Bean
    public FilterRegistrationBean<RequestHeaderFilter> spiffeIdtRequestHeaderFilter() {
        FilterRegistrationBean<RequestHeaderFilter> registration =
                new FilterRegistrationBean<>(new RequestHeaderFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Bounds request bodies (1 MiB) before they are buffered. */
    @Bean
    public FilterRegistrationBean<RequestBodyLimitFilter> spiffeIdtRequestBodyLimitFilter() {
        FilterRegistrationBean<RequestBodyLimitFilter> registration =
                new FilterRegistrationBean<>(new RequestBodyLimitFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    /**
     * Refuses parameters Tomcat cannot decode ({@link RequestParameterFilter}); after the body limit,
     * so a form body is bounded before it is parsed.
     */
    @Bean
    public FilterRegistrationBean<RequestParameterFilter> spiffeIdtRequestParameterFilter() {
        FilterRegistrationBean<RequestParameterFilter> registration =
                new FilterRegistrationBean<>(new RequestParameterFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 11);
        return registration;
    }

    /**
     * Bounded concurrency, a short queue and the request's deadline ({@link AdmissionFilter}); before
     * the body limit, so a refused request is never read.
     */
    @Bean
    @ConditionalOnProperty(name = "spiffeidt.admission.enabled", havingValue = "true", matchIfMissing = true)
    public FilterRegistrationBean<AdmissionFilter> spiffeIdtAdmissionFilter(AdmissionProperties settings) {
        FilterRegistrationBean<AdmissionFilter> registration =
                new FilterRegistrationBean<>(new AdmissionFilter(settings));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }

    /** The server port speaks SPIFFE mTLS (TLS 1.3, client SVID required). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(TomcatServletWebServerFactory.class)
    @ConditionalOnProperty(name = "spiffeidt.server.mtls", havingValue = "true", matchIfMissing = true)
    public static class MtlsServerConfiguration {

        /** Adds the SPIFFE mTLS connector customizer. */
        @Bean
        public WebServerFactoryCustomizer<TomcatServletWebServerFactory> spiffeMtlsServerCustomizer(
                X509Source source, IdentityProperties identity) {
            return factory ->
                    factory.addConnectorCustomizers(new SpiffeMtlsConnectorCustomizer(source, identity.trustDomain()));
        }
    }
}
