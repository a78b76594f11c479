package io.spiffeidt.support.identity;

import io.spiffe.workloadapi.X509Source;
import io.spiffeidt.core.Mode;
import io.spiffeidt.support.SpiffeIdtAutoConfiguration;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * This workload's identity: the Workload API source factory, the long-lived X.509 source and the
 * {@link WorkloadIdentity} built on it. Only this concern touches the Workload API socket.
 */
@AutoConfiguration(after = SpiffeIdtAutoConfiguration.class)
@EnableConfigurationProperties(IdentityProperties.class)
public class IdentityAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(IdentityAutoConfiguration.class);

    /** Opens Workload API sources on the configured socket. */
    @Bean
    @ConditionalOnMissingBean
    public X509SourceFactory x509SourceFactory(IdentityProperties properties) {
        IdentityProperties.WorkloadApi api = properties.workloadApi();
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
    public WorkloadIdentity workloadIdentity(X509Source source, IdentityProperties properties) {
        WorkloadIdentity identity = new WorkloadIdentity(source, properties);
        if (properties.workload() != null) {
            if (!identity.svidId().equals(identity.self())) {
                log.warn("SVID SPIFFE ID {} differs from the configured {}", identity.svidId(), identity.self());
            } else {
                log.info("workload {} runs as {}", properties.workload().workloadName(), identity.self());
            }
            logUnservedModes(properties.workload(), identity.svid().getPrivateKey());
        }
        return identity;
    }

    /**
     * One start-up line when the SVID key keeps this role from serving some modes (it serves the
     * others; requests for these answer {@link SvidKeyUnsupportedException}'s problem).
     */
    static void logUnservedModes(Role role, PrivateKey key) {
        if (SvidKeys.isP256(key) || role.signsWithSvid().isEmpty()) {
            return;
        }
        String unserved = Arrays.stream(Mode.values())
                .filter(role.signsWithSvid()::contains)
                .map(Mode::pathSegment)
                .collect(Collectors.joining(", "));
        String served = Arrays.stream(Mode.values())
                .filter(m -> !role.signsWithSvid().contains(m))
                .map(Mode::pathSegment)
                .collect(Collectors.joining(", "));
        log.warn(
                "SVID key is {}, not EC P-256: {} cannot serve {} (they sign with the SVID key as ES256); it serves {}",
                SvidKeys.describe(key),
                role.workloadName(),
                unserved,
                served);
    }
}
