package io.spiffeidt.support.caller;

import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import io.spiffeidt.support.identity.IdentityProperties;
import io.spiffeidt.support.server.WorkloadServerProperties;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Per-endpoint caller authorization: {@link AllowedCallers} is enforced on the mTLS peer's SPIFFE
 * ID, and controllers can take the {@link Caller} as a parameter.
 */
@AutoConfiguration(after = SpiffeIdtAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties({IdentityProperties.class, WorkloadServerProperties.class})
public class CallerAutoConfiguration {

    /** {@link AllowedCallers} enforcement (on the mTLS port) and {@link Caller} parameters. */
    @Bean
    @ConditionalOnMissingBean
    public CallerAuthorization callerAuthorization(IdentityProperties identity, WorkloadServerProperties server) {
        return new CallerAuthorization(identity, server.mtls());
    }

    /** Registers the interceptor and the argument resolver. */
    @Bean
    public WebMvcConfigurer spiffeIdtWebMvcConfigurer(CallerAuthorization authorization) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(authorization);
            }

            @Override
            public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
                resolvers.add(authorization);
            }
        };
    }
}
