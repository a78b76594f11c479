package io.spiffeidt.asserting.txntoken;

import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.txntoken.TxnTokenMinter;
import io.spiffeidt.core.txntoken.TxnTokenVerifier;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.txntoken.TxnTokenHop;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The asserting workload as the Txn-Token Service: its signing key, its minter and the verifier of
 * the tokens it is asked to replace (its own key only).
 */
@Configuration(proxyBeanMethods = false)
public class TxnTokenAssertingConfiguration {

    /** A P-256 pair made at start-up and kept in memory (docs/formats/txn-token.md "Service key"). */
    @Bean
    TxnTokenServiceKey txnTokenServiceKey() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("EC");
            gen.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = gen.generateKeyPair();
            return new TxnTokenServiceKey(pair.getPrivate(), pair.getPublic());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot create the Txn-Token Service key", e);
        }
    }

    @Bean
    TxnTokenMinter txnTokenMinter(TxnTokenHop hop, TxnTokenServiceKey key, SignatureProvider provider) {
        return new TxnTokenMinter(
                key.privateKey(), key.publicKey(), provider.provider(), hop.settings(), provider.secureRandom());
    }

    /** Verifies a token presented for replacement under the service's own key. */
    @Bean
    TxnTokenVerifier txnTokenOwnVerifier(TxnTokenHop hop, TxnTokenMinter minter, TxnTokenServiceKey key) {
        String kid = minter.keyId();
        return hop.verifier(requested -> {
            if (!kid.equals(requested)) {
                throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown Txn-Token key id");
            }
            return key.publicKey();
        });
    }
}
