package io.spiffeidt.asserting.txntoken;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Txn-Token Service's own settings, read by the asserting workload only ({@code
 * spiffeidt.txn-token.service.*}; what every tier reads is {@code spiffeidt.txn-token.*}).
 *
 * @param keyPath PEM private key (PKCS#8 or SEC 1, EC P-256) the service signs Txn-Tokens with; share
 *     it between replicas, or a token minted by one is refused by the other; unset: a key
 *     generated at start-up (one replica, development)
 */
@ConfigurationProperties("spiffeidt.txn-token.service")
public record TxnTokenServiceProperties(Path keyPath) {}
