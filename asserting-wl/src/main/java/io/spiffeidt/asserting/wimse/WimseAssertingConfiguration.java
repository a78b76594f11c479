package io.spiffeidt.asserting.wimse;

import io.spiffeidt.asserting.keys.PemKeyPair;
import io.spiffeidt.core.wimse.WitIssuer;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.wimse.WimseHop;
import java.security.KeyPair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The asserting workload as the WIT issuer of the trust domain: its signing key and its issuer. */
@Configuration(proxyBeanMethods = false)
public class WimseAssertingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WimseAssertingConfiguration.class);

    /**
     * The P-256 pair of {@code spiffeidt.wimse.issuer.key-path}, which replicas share, or one made at
     * start-up and kept in memory (docs/formats/wimse.md "Who issues WITs").
     */
    @Bean
    WitIssuerKey witIssuerKey(WitIssuerProperties properties) {
        KeyPair pair = PemKeyPair.p256(properties.keyPath(), "WIT issuer");
        if (properties.keyPath() != null) {
            log.info("WIT issuer key from file");
        } else {
            log.info("WIT issuer key generated at start-up (one replica only: set "
                    + "spiffeidt.wimse.issuer.key-path to share one)");
        }
        return new WitIssuerKey(pair.getPrivate(), pair.getPublic());
    }

    @Bean
    WitIssuer witIssuer(WimseHop hop, WitIssuerKey key, SignatureProvider provider) {
        return new WitIssuer(
                key.privateKey(), key.publicKey(), provider.provider(), hop.settings(), provider.secureRandom());
    }
}
