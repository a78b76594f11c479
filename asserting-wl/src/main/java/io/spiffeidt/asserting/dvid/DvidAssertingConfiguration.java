package io.spiffeidt.asserting.dvid;

import io.spiffeidt.asserting.introspection.IntrospectionEntry;
import io.spiffeidt.asserting.introspection.IntrospectionStore;
import io.spiffeidt.asserting.introspection.UserProofs;
import io.spiffeidt.core.AssertionException;
import io.spiffeidt.core.ErrorCode;
import io.spiffeidt.core.Mode;
import io.spiffeidt.core.dvid.DvidAlgorithm;
import io.spiffeidt.core.dvid.DvidMinter;
import io.spiffeidt.core.dvid.DvidSettings;
import io.spiffeidt.core.dvid.DvidVerifier;
import io.spiffeidt.support.crypto.SignatureProvider;
import io.spiffeidt.support.dvid.DvidHop;
import io.spiffeidt.support.hop.HopParts;
import io.spiffeidt.support.oauth.OAuthTokenVerifier;
import java.security.SecureRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The asserting workload's DVID signer, its minting hop, verifier and introspection store. */
@Configuration(proxyBeanMethods = false)
public class DvidAssertingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DvidAssertingConfiguration.class);

    @Bean
    DvidSigningKey dvidSigningKey(DvidAssertingProperties properties) {
        return DvidSigningKey.loadOrGenerate(properties.keyPath());
    }

    @Bean
    DvidSettings dvidSettings(HopParts parts, DvidSigningKey key, DvidAssertingProperties properties) {
        DvidAlgorithm algorithm =
                "RSA".equals(key.publicKey().getAlgorithm()) ? DvidAlgorithm.RS256 : DvidAlgorithm.ES256;
        return DvidHop.mintingSettings(parts, algorithm, properties.lifetime(), properties.zkpRounds());
    }

    /** The DVID hop of the asserting workload: the one that mints and validates, with its key. */
    @Bean
    DvidHop dvidHop(HopParts parts, DvidMinter minter, DvidVerifier verifier, DvidAssertingProperties properties) {
        return new DvidHop(parts, minter, verifier, properties.embedZkp());
    }

    @Bean
    DvidMinter dvidMinter(DvidSigningKey key, SignatureProvider provider, DvidSettings settings) {
        DvidMinter minter =
                new DvidMinter(key.privateKey(), key.publicKey(), provider.provider(), settings, new SecureRandom());
        // the key id is public (the JWKS names it): it tells whether a restart kept the key
        log.info("DVID signing key: {}, key id {}", key, minter.keyId());
        return minter;
    }

    @Bean
    DvidVerifier dvidVerifier(
            DvidSettings settings,
            SignatureProvider provider,
            DvidMinter minter,
            DvidSigningKey key,
            OAuthTokenVerifier oauth) {
        String kid = minter.keyId();
        // embedded proofs (spiffeidt.dvid.embed-zkp) are checked against the IdP's JWKS
        return new DvidVerifier(
                settings,
                provider.provider(),
                requested -> {
                    if (requested == null || !requested.equals(kid)) {
                        throw new AssertionException(ErrorCode.UNTRUSTED_KEY, "unknown DVID key id");
                    }
                    return key.publicKey();
                },
                oauth::idpKey);
    }

    /**
     * The OAuth check and the kept proofs of DVID roots (the introspection store of {@code
     * spiffeidt.asserting.introspection.store}).
     */
    @Bean
    UserProofs.Kept dvidProofs(
            UserProofs users,
            @Qualifier("dvidIntrospectionStore") IntrospectionStore<IntrospectionEntry> store,
            DvidAssertingProperties settings) {
        return users.keeping(Mode.DVID, store, settings.zkp(), settings.zkpRounds());
    }
}
