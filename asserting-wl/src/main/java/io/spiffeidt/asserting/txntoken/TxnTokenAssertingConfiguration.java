package io.spiffeidt.asserting.txntoken;

import io.spiffeidt.asserting.keys.PemKeyPair;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import io.spiffeidt.support.txntoken.TxnTokenProperties;
import java.security.KeyPair;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The asserting workload as the Txn-Token Service: its signing key, its minter and its hop, which
 * mints with it and replaces only the tokens signed with it.
 */
@Configuration(proxyBeanMethods = false)
public class TxnTokenAssertingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TxnTokenAssertingConfiguration.class);

    /**
     * The P-256 pair of {@code spiffeidt.txn-token.service.key-path}, which replicas share, or one
     * made at start-up and kept in memory (docs/formats/txn-token.md "Service key").
     */
    @Bean
    TxnTokenServiceKey txnTokenServiceKey(TxnTokenServiceProperties properties) {
        KeyPair pair = PemKeyPair.p256(properties.keyPath(), "Txn-Token Service");
        if (properties.keyPath() != null) {
            log.info("Txn-Token Service key from file");
        } else {
            log.info("Txn-Token Service key generated at start-up (one replica only: set "
                    + "spiffeidt.txn-token.service.key-path to share one)");
        }
        return new TxnTokenServiceKey(pair.getPrivate(), pair.getPublic());
    }

    @Bean
    TxnTokenMinter txnTokenMinter(
            HopParts parts, TxnTokenProperties properties, TxnTokenServiceKey key, SignatureProvider provider) {
        return new TxnTokenMinter(
                key.privateKey(),
                key.publicKey(),
                provider.provider(),
                TxnTokenHop.serviceSettings(parts, properties),
                provider.secureRandom());
    }

    /**
     * The Txn-Token hop of the service: the one that mints, and replaces only tokens signed with the
     * service's own key.
     */
    @Bean
    TxnTokenHop txnTokenHop(
            HopParts parts, TxnTokenProperties properties, TxnTokenMinter minter, TxnTokenServiceKey key) {
        String kid = minter.keyId();
        return new TxnTokenHop(parts, properties, minter, requested -> {
            if (!kid.equals(requested)) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown Txn-Token key id");
            }
            return key.publicKey();
        });
    }
}
