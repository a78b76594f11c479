package io.spiffeidt.core.wimse;

import io.spiffeidt.core.internal.Es256;
import io.spiffeidt.core.internal.ProviderKeys;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;

/** The key checks the WIT issuer and the WPT signer share at construction. */
final class KeyPairs {

    private KeyPairs() {}

    /**
     * {@code privateKey} as the provider's key object, after checking both keys are P-256 and a pair.
     *
     * @throws IllegalArgumentException otherwise
     */
    static PrivateKey requirePair(PrivateKey privateKey, PublicKey publicKey, Provider provider, String whose) {
        if (!Es256.isP256(publicKey) || !Es256.isP256(privateKey)) {
            throw new IllegalArgumentException("the " + whose + " key must be EC P-256");
        }
        PrivateKey signing = ProviderKeys.forSigning(privateKey, provider);
        byte[] probe = "wimse-key-pair-check".getBytes(StandardCharsets.US_ASCII);
        byte[] sig = Es256.sign(signing, probe, provider);
        if (!Es256.verify(publicKey, probe, 0, probe.length, sig, provider, -1)) {
            throw new IllegalArgumentException("the " + whose + " private and public keys are not a pair");
        }
        return signing;
    }
}
