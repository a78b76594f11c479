package io.spiffeidt.support;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.Limits;
import io.spiffeidt.core.TimeRules;
import io.spiffeidt.core.VerificationProfile;
import io.spiffeidt.support.internal.RequestBodyLimitFilter;
import io.spiffeidt.support.internal.SpiffeMtlsConnectorCustomizer;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.client.RestClient;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The beans every workload shares: clock and time rules, limits, the X.509 source and identity,
 * the JCA provider, metrics, OAuth token verification, downstream mTLS clients, problem details,
 * and (with {@code spiffeidt.server.mtls=true}, the default) the SPIFFE mTLS Tomcat connector with
 * per-endpoint caller authorization. Every bean backs off when the application defines its own.
 *
 * <p>Nothing here is global: no static state, no {@code Security.addProvider}, no system
 * properties, so several workloads can run as separate contexts in one JVM.
 */
@AutoConfiguration
@EnableConfigurationProperties(SpiffeIdtProperties.class)
public class SpiffeIdtAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SpiffeIdtAutoConfiguration.class);

    /** The system clock in UTC. */
    @Bean
    @ConditionalOnMissingBean
    public Clock clock() {
        return Clock.systemUTC();
    }

    /** The limits of spec/common.md. */
    @Bean
    @ConditionalOnMissingBean
    public Limits limits() {
        return Limits.defaults();
    }

    /** Time rules from {@code spiffeidt.verification}. */
    @Bean
    @ConditionalOnMissingBean
    public TimeRules timeRules(SpiffeIdtProperties properties, Clock clock) {
        SpiffeIdtProperties.Verification v = properties.verification();
        return new TimeRules(clock, v.skew(), v.lifetime(), v.originalMaxAge());
    }

    /** The verification profile from {@code spiffeidt.verification.profile}. */
    @Bean
    @ConditionalOnMissingBean
    public VerificationProfile verificationProfile(SpiffeIdtProperties properties) {
        return properties.verification().profile();
    }

    /** The trusted version 1 LSVID issuer keys of {@code spiffeidt.verification.lsvid-v1-issuer-keys}. */
    @Bean
    @ConditionalOnMissingBean
    public LsvidV1IssuerKeys lsvidV1IssuerKeys(SpiffeIdtProperties properties) {
        LsvidV1IssuerKeys keys =
                LsvidV1IssuerKeys.load(properties.verification().lsvidV1IssuerKeys());
        if (!keys.keys().isEmpty() && properties.verification().profile() == VerificationProfile.STRICT) {
            log.warn(
                    "{} version 1 LSVID issuer key(s) configured but unused under the strict profile",
                    keys.keys().size());
        }
        return keys;
    }

    /** This workload's LSVID hop: its base, extensions, and verification. */
    @Bean
    @ConditionalOnMissingBean
    public LsvidHop lsvidHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules,
            LsvidV1IssuerKeys v1IssuerKeys) {
        return new LsvidHop(identity, provider, profile, limits, timeRules, v1IssuerKeys);
    }

    /** This workload's ID-Mode hop: its verifier and the layers it signs. */
    @Bean
    @ConditionalOnMissingBean
    public IdModeHop idModeHop(
            WorkloadIdentity identity,
            SignatureProvider provider,
            VerificationProfile profile,
            Limits limits,
            TimeRules timeRules) {
        return new IdModeHop(identity, provider, profile, limits, timeRules);
    }

    /** Opens Workload API sources on the configured socket. */
    @Bean
    @ConditionalOnMissingBean
    public X509SourceFactory x509SourceFactory(SpiffeIdtProperties properties) {
        SpiffeIdtProperties.WorkloadApi api = properties.workloadApi();
        return new WorkloadApiX509SourceFactory(api.socket(), api.initTimeout());
    }

    /** The long-lived X.509 source (closed on shutdown). */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public X509Source x509Source(X509SourceFactory factory) {
        return factory.open();
    }

    /** This workload's identity. */
    @Bean
    @ConditionalOnMissingBean
    public WorkloadIdentity workloadIdentity(X509Source source, SpiffeIdtProperties properties) {
        WorkloadIdentity identity = new WorkloadIdentity(source, properties);
        if (properties.workload() != null) {
            if (!identity.svidId().equals(identity.self())) {
                log.warn("SVID SPIFFE ID {} differs from the configured {}", identity.svidId(), identity.self());
            } else {
                log.info("workload {} runs as {}", properties.workload().workloadName(), identity.self());
            }
        }
        return identity;
    }

    /** The JCA provider of {@code spiffeidt.crypto.provider}. */
    @Bean
    @ConditionalOnMissingBean
    public SignatureProvider signatureProvider(SpiffeIdtProperties properties) {
        SignatureProvider provider = new SignatureProvider(properties.crypto().provider());
        log.info(
                "crypto provider {} ({}: {})",
                provider.name(),
                provider.provider().getName(),
                provider.reason());
        return provider;
    }

    /** Operation timers and document sizes. */
    @Bean
    @ConditionalOnMissingBean
    public OperationMetrics operationMetrics(ObjectProvider<MeterRegistry> registry) {
        return new OperationMetrics(registry.getIfAvailable(SimpleMeterRegistry::new));
    }

    /** OAuth access token verification against the configured issuers. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public OAuthTokenVerifier oauthTokenVerifier(
            SpiffeIdtProperties properties,
            TimeRules timeRules,
            SignatureProvider signatureProvider,
            OperationMetrics metrics) {
        return new OAuthTokenVerifier(
                properties.oauth(),
                timeRules,
                signatureProvider,
                metrics,
                properties.pooling().connectTimeout(),
                properties.pooling().responseTimeout());
    }

    /** The outbound mTLS clients. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public DownstreamClients downstreamClients(
            SpiffeIdtProperties properties,
            X509Source source,
            X509SourceFactory factory,
            ObjectProvider<RestClient.Builder> restClientBuilder,
            OperationMetrics metrics) {
        return new DownstreamClients(
                properties, source, factory, restClientBuilder.getIfAvailable(RestClient::builder), metrics);
    }

    /** Common tags {@code workload} and {@code crypto.provider}. */
    @Bean
    public MeterFilter spiffeIdtCommonTags(SpiffeIdtProperties properties, SignatureProvider signatureProvider) {
        String workload = properties.workload() == null
                ? "unknown"
                : properties.workload().workloadName();
        return MeterFilter.commonTags(Tags.of("workload", workload, "crypto.provider", signatureProvider.name()));
    }

    /** Histograms and percentiles for {@code spiffeidt.*} and the HTTP server and client timers. */
    @Bean
    public MeterFilter spiffeIdtHistograms() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                String name = id.getName();
                if (name.startsWith("spiffeidt.")
                        || name.equals("http.server.requests")
                        || name.equals("http.client.requests")) {
                    return DistributionStatisticConfig.builder()
                            .percentilesHistogram(true)
                            .percentiles(0.5, 0.95, 0.99)
                            .build()
                            .merge(config);
                }
                return config;
            }
        };
    }

    /**
     * Gives every {@code http.client.requests} meter a {@code pooling} tag ({@code none} for
     * clients not built by {@link DownstreamClients}), since Prometheus needs one tag key set per
     * name.
     */
    @Bean
    public MeterFilter spiffeIdtClientPoolingTag() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (id.getName().equals("http.client.requests") && id.getTag("pooling") == null) {
                    return id.withTags(List.of(Tag.of("pooling", "none")));
                }
                return id;
            }
        };
    }

    /** Problem details, caller authorization and the mTLS connector. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    public static class WebConfiguration {

        /** Maps failures to problem details. */
        @Bean
        @ConditionalOnMissingBean
        public ProblemDetailsAdvice problemDetailsAdvice() {
            return new ProblemDetailsAdvice();
        }

        /** Bounds request bodies (1 MiB) before they are buffered. */
        @Bean
        public FilterRegistrationBean<RequestBodyLimitFilter> spiffeIdtRequestBodyLimitFilter() {
            FilterRegistrationBean<RequestBodyLimitFilter> registration =
                    new FilterRegistrationBean<>(new RequestBodyLimitFilter());
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
            return registration;
        }

        /** {@link AllowedCallers} enforcement (on the mTLS port) and {@link Caller} parameters. */
        @Bean
        @ConditionalOnMissingBean
        public CallerAuthorization callerAuthorization(SpiffeIdtProperties properties) {
            return new CallerAuthorization(properties, properties.server().mtls());
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

        /** The server port speaks SPIFFE mTLS (TLS 1.3, client SVID required). */
        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(TomcatServletWebServerFactory.class)
        @ConditionalOnProperty(name = "spiffeidt.server.mtls", havingValue = "true", matchIfMissing = true)
        public static class MtlsServerConfiguration {

            /** Adds the SPIFFE mTLS connector customizer. */
            @Bean
            public WebServerFactoryCustomizer<TomcatServletWebServerFactory> spiffeMtlsServerCustomizer(
                    X509Source source, SpiffeIdtProperties properties) {
                return factory -> factory.addConnectorCustomizers(
                        new SpiffeMtlsConnectorCustomizer(source, properties.trustDomain()));
            }
        }
    }
}
