package io.spiffeidt.asserting.wimse;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The WIT issuer's own settings, read by the asserting workload only ({@code
 * spiffeidt.wimse.issuer.*}; docs/formats/wimse.md "Who issues WITs").
 *
 * @param keyPath PEM private key (PKCS#8 or SEC 1, EC P-256) the issuer signs WITs with; share it
 *     between replicas, or a WIT issued by one is refused by the tiers that hold the other's key set;
 *     unset: a key generated at start-up (one replica, development)
 */
@ConfigurationProperties("spiffeidt.wimse.issuer")
public record WitIssuerProperties(Path keyPath) {}
